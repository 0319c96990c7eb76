package truststore

import (
	"crypto/ecdsa"
	"encoding/binary"
	"sync"
)

// lru is a bounded map with least-recently-used eviction, safe for
// concurrent use. A capacity of zero or less disables it: Get misses and
// Put drops.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	cap   int
	items map[K]*lruNode[K, V]
	// head.next is the most recently used node, head.prev the least.
	head lruNode[K, V]
}

type lruNode[K comparable, V any] struct {
	key        K
	val        V
	prev, next *lruNode[K, V]
}

func newLRU[K comparable, V any](capacity int) *lru[K, V] {
	c := &lru[K, V]{cap: capacity, items: make(map[K]*lruNode[K, V])}
	c.head.prev, c.head.next = &c.head, &c.head
	return c
}

func (c *lru[K, V]) unlink(n *lruNode[K, V]) {
	n.prev.next, n.next.prev = n.next, n.prev
}

func (c *lru[K, V]) pushFront(n *lruNode[K, V]) {
	n.prev, n.next = &c.head, c.head.next
	c.head.next.prev = n
	c.head.next = n
}

// Get returns the value for k and marks it most recently used.
func (c *lru[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.items[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.unlink(n)
	c.pushFront(n)
	return n.val, true
}

// Put stores v under k (replacing any previous value) as the most recently
// used entry, evicting the least recently used one when full.
func (c *lru[K, V]) Put(k K, v V) {
	if c.cap <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.items[k]; ok {
		n.val = v
		c.unlink(n)
		c.pushFront(n)
		return
	}
	var n *lruNode[K, V]
	if len(c.items) >= c.cap {
		// Reuse the oldest node.
		n = c.head.prev
		c.unlink(n)
		delete(c.items, n.key)
	} else {
		n = new(lruNode[K, V])
	}
	n.key, n.val = k, v
	c.items[k] = n
	c.pushFront(n)
}

// Len returns the number of entries.
func (c *lru[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Clear drops every entry.
func (c *lru[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.items)
	c.head.prev, c.head.next = &c.head, &c.head
}

// hotCache holds the tables of issuing keys that have no anchor table:
// intermediates, and anchors left without one by WithMaxTables (on the
// curves tableCurve admits), with an admission rule that keeps a key set
// larger than the cache from churning it: a table costs about tablePayback
// plain verifications to build, so it is built only for a key whose recent
// use predicts that it will pay, and only in place of a table that has paid
// already.
//
// Uses are counted in a count-min sketch (sketchRows rows of 8-bit
// counters) halved every window observations, so an estimate is the key's
// recent frequency, never below its true count since the last halvings.
// note admits key k, after a verification without a table, when
//
//   - k's estimate has reached threshold and the cache has room, or
//   - the cache is full and its least recently used table v may go: v has
//     served at least tablePayback verifications since it was built, or has
//     served none for a whole window; and k's estimate exceeds v's by at
//     least tablePayback (the uses k must win over v to repay its build).
//
// Everything is under one mutex, except the table build itself. Safe for
// concurrent use; a capacity of zero or less disables the cache.
type hotCache struct {
	mu        sync.Mutex
	cap       int
	threshold int
	window    uint64 // observations between halvings
	clock     uint64 // observations so far
	items     map[keyID]*hotEntry
	// head.next is the most recently used entry, head.prev the least.
	head   hotEntry
	sketch []uint8 // sketchRows rows of mask+1 counters
	mask   uint32

	built, evicted, refused, hits uint64
	bytes                         int // of the entries held
}

type hotEntry struct {
	id         keyID
	bytes      int      // the table's memory (counted from admission)
	table      keyTable // nil while being built
	uses       int      // verifications served since built
	last       uint64   // clock of the last use (or of admission)
	prev, next *hotEntry
}

const sketchRows = 4

// newHotCache returns a cache of capacity tables admitting keys whose
// estimate reaches threshold (at least 1).
func newHotCache(capacity, threshold int) *hotCache {
	c := &hotCache{cap: capacity, threshold: max(threshold, 1), items: make(map[keyID]*hotEntry)}
	c.head.prev, c.head.next = &c.head, &c.head
	if capacity <= 0 {
		return c
	}
	c.window = 10 * uint64(capacity)
	width := uint32(64)
	for uint64(width) < c.window && width < 1<<20 {
		width <<= 1
	}
	c.mask = width - 1
	c.sketch = make([]uint8, sketchRows*int(width))
	return c
}

// slot returns the index of id's counter in row r. A keyID is a SHA-256
// output, so its words are independent hashes.
func (c *hotCache) slot(id *keyID, r int) int {
	return r*int(c.mask+1) + int(binary.LittleEndian.Uint32(id[4*r:])&c.mask)
}

// tick counts one observation of id (conservative update: only the
// smallest counters grow) and halves every counter once per window.
func (c *hotCache) tick(id *keyID) {
	est := c.estimate(id)
	if est < 255 {
		for r := range sketchRows {
			if i := c.slot(id, r); int(c.sketch[i]) == est {
				c.sketch[i]++
			}
		}
	}
	c.clock++
	if c.clock%c.window == 0 {
		for i := range c.sketch {
			c.sketch[i] >>= 1
		}
	}
}

func (c *hotCache) estimate(id *keyID) int {
	m := 255
	for r := range sketchRows {
		m = min(m, int(c.sketch[c.slot(id, r)]))
	}
	return m
}

func (c *hotCache) unlink(e *hotEntry) { e.prev.next, e.next.prev = e.next, e.prev }

func (c *hotCache) pushFront(e *hotEntry) {
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev = e
	c.head.next = e
}

// lookup returns id's table, counting the use, or nil.
func (c *hotCache) lookup(id keyID) keyTable {
	if c.cap <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.items[id]
	if e == nil || e.table == nil {
		return nil
	}
	c.tick(&id)
	e.uses++
	e.last = c.clock
	c.unlink(e)
	c.pushFront(e)
	c.hits++
	return e.table
}

// note counts a signature that pub, the valid key named id on a curve
// tableCurve admits, verified without a table, and builds its table if the
// admission rule allows it.
func (c *hotCache) note(id keyID, pub *ecdsa.PublicKey) {
	if c.cap <= 0 {
		return
	}
	c.mu.Lock()
	c.tick(&id)
	est := c.estimate(&id)
	if est < c.threshold || c.items[id] != nil {
		c.mu.Unlock()
		return
	}
	if len(c.items) >= c.cap {
		v := c.head.prev
		paid := v.uses >= tablePayback || c.clock-v.last >= c.window
		if v.table == nil || !paid || est < c.estimate(&v.id)+tablePayback {
			c.refused++
			c.mu.Unlock()
			return
		}
		c.unlink(v)
		delete(c.items, v.id)
		c.bytes -= v.bytes
		c.evicted++
	}
	e := &hotEntry{id: id, last: c.clock, bytes: tableBytesOf(pub)}
	c.bytes += e.bytes
	c.items[id] = e
	c.pushFront(e)
	c.mu.Unlock()

	t, err := newKeyTable(pub)

	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items[id] != e {
		return // cleared meanwhile
	}
	if err != nil {
		c.unlink(e)
		delete(c.items, id)
		c.bytes -= e.bytes
		return
	}
	e.table = t
	c.built++
}

// hotStats are the cache's counters.
type hotStats struct {
	tables, bytes                 int
	built, evicted, refused, hits uint64
}

func (c *hotCache) stats() hotStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return hotStats{tables: len(c.items), bytes: c.bytes, built: c.built, evicted: c.evicted, refused: c.refused, hits: c.hits}
}

// clear drops every table and count; the counters of stats remain.
func (c *hotCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.items)
	c.bytes = 0
	c.head.prev, c.head.next = &c.head, &c.head
	clear(c.sketch)
}
