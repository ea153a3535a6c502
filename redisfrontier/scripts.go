package redisfrontier

import "github.com/redis/go-redis/v9"

// scripts are the frontier's Lua scripts, each the shared prelude (the
// pace functions, the host helpers) followed by its own body. They run
// through EVALSHA, falling back to EVAL when the server's script cache
// was emptied (a restart): go-redis Script.Run.
type scripts struct {
	add, claim, renew, start, answered, observe  *redis.Script
	finish, rules, rulesFailed, expire, earliest *redis.Script
	report, giveBack                             *redis.Script
}

// loadScripts builds the scripts from their sources (scripts_*.go).
func loadScripts() scripts {
	prelude := paceLua + "\n" + hostLua + "\n"
	mk := func(body string) *redis.Script { return redis.NewScript(prelude + body) }
	return scripts{
		add: mk(addLua), claim: mk(claimLua), renew: mk(renewLua), start: mk(startLua),
		answered: mk(answeredLua), observe: mk(observeLua), finish: mk(finishLua),
		rules: mk(rulesLua), rulesFailed: mk(rulesFailedLua), expire: mk(expireLua),
		earliest: mk(earliestLua), report: mk(reportLua), giveBack: mk(giveBackLua),
	}
}
