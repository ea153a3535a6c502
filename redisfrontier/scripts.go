package redisfrontier

import (
	"embed"

	"github.com/redis/go-redis/v9"
)

//go:embed lua/*.lua
var luaFiles embed.FS

// scripts are the frontier's Lua scripts, each the shared prelude (the
// pace functions, the host helpers) followed by its own body. They run
// through EVALSHA, falling back to EVAL when the server's script cache
// was emptied (a restart): go-redis Script.Run.
type scripts struct {
	add, claim, renew, start, answered, observe  *redis.Script
	finish, rules, rulesFailed, expire, earliest *redis.Script
}

func loadScripts() scripts {
	prelude := mustRead("pace.lua") + "\n" + mustRead("host.lua") + "\n"
	mk := func(name string) *redis.Script { return redis.NewScript(prelude + mustRead(name)) }
	return scripts{
		add: mk("add.lua"), claim: mk("claim.lua"), renew: mk("renew.lua"), start: mk("start.lua"),
		answered: mk("answered.lua"), observe: mk("observe.lua"), finish: mk("finish.lua"),
		rules: mk("rules.lua"), rulesFailed: mk("rulesfailed.lua"), expire: mk("expire.lua"),
		earliest: mk("earliest.lua"),
	}
}

// mustRead returns an embedded script; the files are part of the build,
// so a missing one is a programming error.
func mustRead(name string) string {
	b, err := luaFiles.ReadFile("lua/" + name)
	if err != nil {
		panic("redisfrontier: " + err.Error())
	}
	return string(b)
}
