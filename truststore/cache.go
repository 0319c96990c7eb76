package truststore

import "sync"

// lru is a bounded map with least-recently-used eviction, safe for
// concurrent use. A capacity of zero or less disables it: Get misses and
// Put drops.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	cap   int
	items map[K]*lruNode[K, V]
	// head.next is the most recently used node, head.prev the least.
	head lruNode[K, V]
	// evicted counts entries dropped to make room.
	evicted uint64
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

// Contains reports whether k is present, without touching its recency.
func (c *lru[K, V]) Contains(k K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.items[k]
	return ok
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
		c.evicted++
	} else {
		n = new(lruNode[K, V])
	}
	n.key, n.val = k, v
	c.items[k] = n
	c.pushFront(n)
}

// Update applies f to the value stored under k (the zero value when absent)
// and stores the result, all under the lock; it returns the new value.
func (c *lru[K, V]) Update(k K, f func(V) V) V {
	if c.cap <= 0 {
		var zero V
		return f(zero)
	}
	c.mu.Lock()
	n, ok := c.items[k]
	if ok {
		n.val = f(n.val)
		c.unlink(n)
		c.pushFront(n)
		v := n.val
		c.mu.Unlock()
		return v
	}
	c.mu.Unlock()
	var zero V
	v := f(zero)
	c.Put(k, v)
	return v
}

// Delete removes k.
func (c *lru[K, V]) Delete(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.items[k]; ok {
		c.unlink(n)
		delete(c.items, k)
	}
}

// Len returns the number of entries.
func (c *lru[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Evicted returns how many entries were dropped to make room.
func (c *lru[K, V]) Evicted() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.evicted
}

// Clear drops every entry.
func (c *lru[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.items)
	c.head.prev, c.head.next = &c.head, &c.head
}
