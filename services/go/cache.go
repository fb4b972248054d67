package main

import (
	"net/url"
	"strconv"

	lru "github.com/hashicorp/golang-lru/v2"
)

// ---- The no-database workload -------------------------------------------------------------------------------------

// The cache of GET /cache/{key}, as the JVM variants build it with Caffeine: golang-lru (Go's usual bounded
// in-process cache; safe for concurrent use), at most 10,000 entries, no expiry, key0 … key999 held from the start,
// a missing value computed as "value-" + key and held.
const (
	cacheMaxEntries   = 10000
	cachePrewarmed    = 1000
	cacheMaxKeyLength = 64
	cacheKeyRule      = "1 to 64 characters, each an ASCII letter, a digit, '-' or '_'"
)

type cacheEntry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func newValueCache() *lru.Cache[string, string] {
	cache, err := lru.New[string, string](cacheMaxEntries)
	if err != nil {
		panic(err) // only for a size below 1
	}
	for i := 0; i < cachePrewarmed; i++ {
		key := "key" + strconv.Itoa(i)
		cache.Add(key, "value-"+key)
	}
	return cache
}

// isCacheKey: what openapi.yaml's Key parameter accepts, after percent-decoding.
func isCacheKey(key string) bool {
	if len(key) == 0 || len(key) > cacheMaxKeyLength {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// No SQL statement.
func (a *app) getCacheValue(x *exchange) error {
	if err := x.acceptable(); err != nil {
		return err
	}
	key, err := url.PathUnescape(x.rawVar)
	if err != nil || !isCacheKey(key) {
		return invalidField("key", cacheKeyRule)
	}
	value, ok := a.cache.Get(key)
	if !ok {
		value = "value-" + key
		a.cache.Add(key, value)
	}
	return x.send(200, cacheEntry{Key: key, Value: value})
}
