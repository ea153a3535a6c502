package redistest

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/config"
)

// Client is a client of the server or cluster raw names.
func Client(raw string) (redis.UniversalClient, error) {
	if config.IsRedisCluster(raw) {
		o, err := redis.ParseClusterURL(raw)
		if err != nil {
			return nil, fmt.Errorf("redistest: cluster URL does not parse: %w", err)
		}
		return redis.NewClusterClient(o), nil
	}
	o, err := redis.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("redistest: URL does not parse: %w", err)
	}
	return redis.NewClient(o), nil
}

// WithDB is the single-server URL raw with its database set to db.
func WithDB(raw string, db int) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("redistest: %w", err)
	}
	u.Path = "/" + strconv.Itoa(db)
	return u.String(), nil
}
