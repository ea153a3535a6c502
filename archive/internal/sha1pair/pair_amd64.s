#include "textflag.h"

// pairBlocks interleaves the SHA-1 rounds of two messages (Intel SHA
// extensions: SHA1RNDS4 does four rounds, SHA1NEXTE derives the next E and
// adds it to four schedule words, SHA1MSG1/SHA1MSG2 with PXOR extend the
// message schedule of FIPS 180-4 section 6.1.2). Each lane keeps ABCD, two
// E registers that alternate, and four registers of schedule words; X14
// holds the byte-reversal mask that turns four big-endian words into the
// register order SHA1RNDS4 wants (first word highest). The state of each
// lane at the start of a block is saved on the stack and added back after
// its 80 rounds.
//
// Lane 0: ABCD X0, E X1/X2, W X3-X6. Lane 1: ABCD X7, E X8/X9, W X10-X13.
//
// Rounds 4i..4i+3 (group i) of one lane: EA is the E register of the group
// (X1 or X8 for even i), EB the other one, which keeps ABCD for the next
// group; W is the register with words 4i..4i+3, WN, WX and WP the
// registers after it (i+1, i+2, i+3 modulo 4). Groups 1 to 16 start
// words of group i+3 (SHA1MSG1), 2 to 17 fold in words of group i+2
// (PXOR) and 3 to 18 finish those of group i+1 (SHA1MSG2).

#define GROUP0(ABCD, EA, EB, W) \
	PADDD W, EA \
	MOVO ABCD, EB \
	SHA1RNDS4 $0, EA, ABCD

#define GROUP1(ABCD, EA, EB, W, WP) \
	SHA1NEXTE W, EA \
	MOVO ABCD, EB \
	SHA1RNDS4 $0, EA, ABCD \
	SHA1MSG1 W, WP

#define GROUP2(ABCD, EA, EB, W, WX, WP) \
	GROUP1(ABCD, EA, EB, W, WP) \
	PXOR W, WX

#define GROUP(F, ABCD, EA, EB, W, WN, WX, WP) \
	SHA1NEXTE W, EA \
	MOVO ABCD, EB \
	SHA1MSG2 W, WN \
	SHA1RNDS4 F, EA, ABCD \
	SHA1MSG1 W, WP \
	PXOR W, WX

#define GROUP17(ABCD, EA, EB, W, WN, WX) \
	SHA1NEXTE W, EA \
	MOVO ABCD, EB \
	SHA1MSG2 W, WN \
	SHA1RNDS4 $3, EA, ABCD \
	PXOR W, WX

#define GROUP18(ABCD, EA, EB, W, WN) \
	SHA1NEXTE W, EA \
	MOVO ABCD, EB \
	SHA1MSG2 W, WN \
	SHA1RNDS4 $3, EA, ABCD

#define GROUP19(ABCD, EA, EB, W) \
	SHA1NEXTE W, EA \
	MOVO ABCD, EB \
	SHA1RNDS4 $3, EA, ABCD

// func pairBlocks(st *pairState, a, b *byte, n int)
TEXT ·pairBlocks(SB), NOSPLIT, $64-32
	MOVQ	st+0(FP), DI
	MOVQ	a+8(FP), SI
	MOVQ	b+16(FP), DX
	MOVQ	n+24(FP), CX
	MOVOU	bswap<>(SB), X14
	MOVOU	0(DI), X0
	MOVOU	16(DI), X1
	MOVOU	32(DI), X7
	MOVOU	48(DI), X8

loop:
	// Save each lane's state for the final addition.
	MOVOU	X0, 0(SP)
	MOVOU	X1, 16(SP)
	MOVOU	X7, 32(SP)
	MOVOU	X8, 48(SP)
	// Load W0..W15 of each lane, byte-reversed.
	MOVOU	0(SI), X3
	PSHUFB	X14, X3
	MOVOU	16(SI), X4
	PSHUFB	X14, X4
	MOVOU	32(SI), X5
	PSHUFB	X14, X5
	MOVOU	48(SI), X6
	PSHUFB	X14, X6
	MOVOU	0(DX), X10
	PSHUFB	X14, X10
	MOVOU	16(DX), X11
	PSHUFB	X14, X11
	MOVOU	32(DX), X12
	PSHUFB	X14, X12
	MOVOU	48(DX), X13
	PSHUFB	X14, X13

	// The 20 groups of rounds, the two lanes alternating.
	GROUP0(X0, X1, X2, X3)
	GROUP0(X7, X8, X9, X10)
	GROUP1(X0, X2, X1, X4, X3)
	GROUP1(X7, X9, X8, X11, X10)
	GROUP2(X0, X1, X2, X5, X3, X4)
	GROUP2(X7, X8, X9, X12, X10, X11)
	GROUP($0, X0, X2, X1, X6, X3, X4, X5)
	GROUP($0, X7, X9, X8, X13, X10, X11, X12)
	GROUP($0, X0, X1, X2, X3, X4, X5, X6)
	GROUP($0, X7, X8, X9, X10, X11, X12, X13)
	GROUP($1, X0, X2, X1, X4, X5, X6, X3)
	GROUP($1, X7, X9, X8, X11, X12, X13, X10)
	GROUP($1, X0, X1, X2, X5, X6, X3, X4)
	GROUP($1, X7, X8, X9, X12, X13, X10, X11)
	GROUP($1, X0, X2, X1, X6, X3, X4, X5)
	GROUP($1, X7, X9, X8, X13, X10, X11, X12)
	GROUP($1, X0, X1, X2, X3, X4, X5, X6)
	GROUP($1, X7, X8, X9, X10, X11, X12, X13)
	GROUP($1, X0, X2, X1, X4, X5, X6, X3)
	GROUP($1, X7, X9, X8, X11, X12, X13, X10)
	GROUP($2, X0, X1, X2, X5, X6, X3, X4)
	GROUP($2, X7, X8, X9, X12, X13, X10, X11)
	GROUP($2, X0, X2, X1, X6, X3, X4, X5)
	GROUP($2, X7, X9, X8, X13, X10, X11, X12)
	GROUP($2, X0, X1, X2, X3, X4, X5, X6)
	GROUP($2, X7, X8, X9, X10, X11, X12, X13)
	GROUP($2, X0, X2, X1, X4, X5, X6, X3)
	GROUP($2, X7, X9, X8, X11, X12, X13, X10)
	GROUP($2, X0, X1, X2, X5, X6, X3, X4)
	GROUP($2, X7, X8, X9, X12, X13, X10, X11)
	GROUP($3, X0, X2, X1, X6, X3, X4, X5)
	GROUP($3, X7, X9, X8, X13, X10, X11, X12)
	GROUP($3, X0, X1, X2, X3, X4, X5, X6)
	GROUP($3, X7, X8, X9, X10, X11, X12, X13)
	GROUP17(X0, X2, X1, X4, X5, X6)
	GROUP17(X7, X9, X8, X11, X12, X13)
	GROUP18(X0, X1, X2, X5, X6)
	GROUP18(X7, X8, X9, X12, X13)
	GROUP19(X0, X2, X1, X6)
	GROUP19(X7, X9, X8, X13)

	// Add the saved state: E through SHA1NEXTE (which rotates A of the
	// last rounds into the new E), ABCD by words.
	MOVOU	16(SP), X3
	SHA1NEXTE	X3, X1
	MOVOU	0(SP), X4
	PADDD	X4, X0
	MOVOU	48(SP), X10
	SHA1NEXTE	X10, X8
	MOVOU	32(SP), X11
	PADDD	X11, X7
	ADDQ	$64, SI
	ADDQ	$64, DX
	DECQ	CX
	JNZ	loop

	MOVOU	X0, 0(DI)
	MOVOU	X1, 16(DI)
	MOVOU	X7, 32(DI)
	MOVOU	X8, 48(DI)
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL	leaf+0(FP), AX
	MOVL	sub+4(FP), CX
	CPUID
	MOVL	AX, eax+8(FP)
	MOVL	BX, ebx+12(FP)
	MOVL	CX, ecx+16(FP)
	MOVL	DX, edx+20(FP)
	RET

// bswap reverses the 16 bytes of a register: four big-endian message words
// become little-endian words in reverse order, W0 highest.
DATA	bswap<>+0(SB)/8, $0x08090a0b0c0d0e0f
DATA	bswap<>+8(SB)/8, $0x0001020304050607
GLOBL	bswap<>(SB), RODATA|NOPTR, $16
