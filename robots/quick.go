package robots

// quick is walk for matchers without wildcard rules and paths as
// requested, with the walk's state in local variables: the commonest
// check, a file of pure prefix rules asked about a path, costs one call.
// It returns what walk returns.
//
// It is one function on purpose, the walk and the end check written out:
// with the comparison of a jump's landing label and the end check as
// methods of their own, BenchmarkCheck/wiki took 33.2-34.4 ns against
// 31.5-31.8 ns (best of 8 and 10 interleaved runs), temoto's 635-670 ns:
// under the 20x this package keeps (19x against 20.4x).
func (m *matcher) quick(t string) (int32, bool) {
	var pad [8]byte // short paths are walked from a copy that peek may read whole
	u := padded(&pad, t)
	n, d, key := int32(0), 0, m.noRule()
	part, leaf, seen := int32(-1), false, uint32(0) // seen: the flags of the nodes passed
	nodes := m.nodes
walk:
	for {
		nd := &nodes[n]
		fl := nd.lab >> labBits
		if fl != 0 {
			if fl&nodeSimple != 0 {
				key = max(key, m.simple[n])
			}
			seen |= fl
			if fl&nodeLeaf != 0 {
				leaf = true
				break
			}
			if fl&nodeAnchor != 0 {
				// Jump while the path follows the tree: each slot says
				// all the walk needs of the node it lands on.
				for k := int(nd.shift&7) + 1; d+k <= len(u); {
					s := m.jump.lookup(n, peek(u, d)&(^uint64(0)>>((64-8*k)&63)))
					if s == nil {
						break
					}
					if r := int(s.rest); r > 0 {
						// Compare the rest of the landing node's label.
						e, same := d+k, false
						switch {
						case len(u)-e < r:
						case r <= 8:
							x := peek(u, e) ^ wordAt(m.labels, int(s.restOff))
							same = x&(^uint64(0)>>((64-8*r)&63)) == 0
						default:
							same = m.sameRest(u, e, r, int(s.restOff))
						}
						if !same {
							part, d = s.to, int(s.depth)-int(nodes[s.to].lab&labMask)
							break walk
						}
					}
					n, d = s.to, int(s.depth)
					seen |= uint32(s.flags)
					if s.flags&nodeSimple != 0 {
						key = max(key, m.simple[n])
					}
					if s.flags&nodeLeaf != 0 {
						leaf = true
						break walk
					}
					if s.flags&nodeAnchor == 0 {
						break
					}
					k = int(s.next)
				}
				nd = &nodes[n]
				fl = nd.lab >> labBits
			}
		}
		if d >= len(u) {
			break
		}
		c := m.child(nd, fl, u[d])
		if c < 0 {
			break
		}
		// The label step is walk's (match.go), written out: as a method
		// it is over the inlining budget, and the call cost 25
		// instructions per check here (5k-groups) and 60 in walk (shop),
		// under callgrind.
		cn := &nodes[c]
		if (peek(u, d)^cn.head)&(^uint64(0)>>(cn.shift&56)) != 0 {
			part = c
			break
		}
		l := int(cn.lab & labMask)
		if l > 8 && (len(u)-d < l || !m.sameRest(u, d+8, l-8, int(cn.labOff)+8)) {
			part = c
			break
		}
		n, d = c, d+l
	}
	// Where the walk left t: it decides as t's normal form if the octet
	// there is plain (or ends the path) and every '%' before it starts
	// an escape normalisation keeps. This is sameEnd (match.go) written
	// out, with the flags gathered on the way instead of passed in, and
	// sameEscapes asked only when a '%' can be among the octets walked.
	s := d
	if part >= 0 {
		c := &nodes[part]
		s += commonPrefix(t[d:], m.labels[c.labOff:int(c.labOff)+int(c.lab&labMask)])
		seen |= c.lab >> labBits
	}
	if !leaf && s < len(t) && !isPlain(t[s]) && t[s] != '#' {
		return -1, false
	}
	if m.pct && (seen&nodePct != 0 || s > 0 && (t[s-1] == '%' || s > 1 && t[s-2] == '%')) && !sameEscapes(t, s, seen&nodePct != 0) {
		return -1, false
	}
	return maxRule - int32(key&maxRule), true
}
