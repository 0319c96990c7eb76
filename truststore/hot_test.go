package truststore

import (
	"crypto/ecdsa"
	"crypto/x509"
	"fmt"
	"testing"

	"github.com/p256tls/p256tls/internal/keytab"
)

// Hot-table admission, counted (never timed). The rule is in hotCache's
// documentation; tablePayback is 3.

type hotKey struct {
	id  keyID
	pub *ecdsa.PublicKey
}

func hotKeys(t *testing.T, n int) []hotKey {
	t.Helper()
	var ks []hotKey
	for i := range n {
		pub := poolKey(kP256, 32+i).Public().(*ecdsa.PublicKey)
		id, ok := keyIDOf(pub)
		if !ok {
			t.Fatal("pool key refused")
		}
		ks = append(ks, hotKey{id, pub})
	}
	return ks
}

// use is one verification by k as verifyLink does it: with k's table when
// it has one, else without and noted.
func (c *hotCache) use(k hotKey) bool {
	if c.lookup(k.id) != nil {
		return true
	}
	c.note(k.id, k.pub)
	return false
}

func TestHotThreshold(t *testing.T) {
	k := hotKeys(t, 1)[0]
	c := newHotCache(4, tablePayback)
	for i := 1; i < tablePayback; i++ {
		c.use(k)
	}
	if st := c.stats(); st.built != 0 {
		t.Fatalf("table built after %d uses", tablePayback-1)
	}
	c.use(k)
	if st := c.stats(); st.built != 1 || st.tables != 1 {
		t.Fatalf("after %d uses: %+v, want one table", tablePayback, st)
	}
	if !c.use(k) {
		t.Fatal("the table is not used")
	}
}

// Round-robin over more keys than the cache holds: the first keys get
// tables and keep them; the others, no more frequent, never displace them.
func TestHotChurnRoundRobin(t *testing.T) {
	for _, tc := range []struct{ capacity, keys int }{{2, 3}, {3, 4}, {2, 8}, {8, 32}} {
		t.Run(fmt.Sprintf("cap=%d/keys=%d", tc.capacity, tc.keys), func(t *testing.T) {
			ks := hotKeys(t, tc.keys)
			c := newHotCache(tc.capacity, tablePayback)
			hits := 0
			for i := range 800 {
				if c.use(ks[i%len(ks)]) {
					hits++
				}
			}
			st := c.stats()
			t.Logf("%+v, %d of 800 with a table", st, hits)
			if st.built > uint64(tc.capacity) || st.evicted != 0 {
				t.Errorf("built %d tables, evicted %d; want at most %d built, none evicted", st.built, st.evicted, tc.capacity)
			}
			// Every key needs tablePayback uses before its table.
			if want := (800 - tc.keys*tablePayback) * tc.capacity / tc.keys * 9 / 10; hits < want {
				t.Errorf("%d verifications with a table, want at least %d", hits, want)
			}
		})
	}
}

// The same through the public API (the issue's case: capacity 2, three
// intermediates in turn, 800 verifications; today's main built 244
// tables).
func TestHotChurnStore(t *testing.T) {
	f := fx(t)
	s, err := New([]*x509.Certificate{f.good.Cert}, WithHotTables(2), WithLinkCache(0))
	if err != nil {
		t.Fatal(err)
	}
	var chains [][]*x509.Certificate
	for i := range 3 {
		in := issue(t, caTemplate(fmt.Sprint("Churn intermediate ", i)), poolKey(kP256, 40+i), f.good)
		lf := issue(t, leafTemplate("churn leaf", "www.example.com"), poolKey(kP256, 21), in)
		chains = append(chains, []*x509.Certificate{lf.Cert, in.Cert})
	}
	for i := range 800 {
		if _, err := s.Verify(chains[i%3], at("www.example.com")); err != nil {
			t.Fatal(err)
		}
	}
	st := s.Stats()
	if st.FastAccepts != 800 {
		t.Fatalf("%d fast accepts", st.FastAccepts)
	}
	if st.HotBuilt > 2 || st.HotEvicted != 0 {
		t.Errorf("HotBuilt %d, HotEvicted %d: want at most 2 built, none evicted", st.HotBuilt, st.HotEvicted)
	}
	if st.HotHits < 500 {
		t.Errorf("HotHits %d, want the two tables used (about 530)", st.HotHits)
	}
}

// A table that has not repaid its build is not displaced, however
// frequent the newcomer, while it is in use.
func TestHotUnpaidKept(t *testing.T) {
	ks := hotKeys(t, 2)
	a, b := ks[0], ks[1]
	c := newHotCache(1, tablePayback) // window 10
	for range tablePayback {
		c.use(a)
	}
	if c.stats().built != 1 {
		t.Fatal("no table for a")
	}
	// a serves fewer than tablePayback verifications, each within a
	// window of the last, while b is used much more.
	for range tablePayback - 1 {
		for range 9 {
			c.use(b)
		}
		if !c.use(a) {
			t.Fatal("a lost its table")
		}
	}
	if st := c.stats(); st.evicted != 0 || st.refused == 0 {
		t.Fatalf("%+v: an unpaid table in use was displaced", st)
	}
}

// Once a table has repaid its build, a clearly more frequent key may take
// its place at once.
func TestHotPaidReplaced(t *testing.T) {
	ks := hotKeys(t, 2)
	a, b := ks[0], ks[1]
	c := newHotCache(1, tablePayback)
	for range 2 * tablePayback {
		c.use(a) // built at the 3rd, then 3 uses
	}
	for range 9 {
		if c.use(b) {
			if st := c.stats(); st.evicted != 1 || st.built != 2 || st.bytes != keytab.Bytes {
				t.Fatalf("%+v", st)
			}
			return
		}
	}
	t.Fatalf("%+v: b never got a's place within a window", c.stats())
}

// A table idle for a whole window may go even unpaid, so stale tables do
// not block the cache; and counts decay, so a key that was hot long ago
// does not keep a newly hot key out.
func TestHotIdleAndDecay(t *testing.T) {
	ks := hotKeys(t, 3)
	a, b, d := ks[0], ks[1], ks[2]
	c := newHotCache(1, tablePayback)
	for range tablePayback {
		c.use(a) // built, unpaid, then never used again
	}
	got := -1
	for i := range 40 {
		if c.use(b) {
			got = i
			break
		}
	}
	if got < 0 || got >= 12 {
		t.Fatalf("b got a table at use %d (%+v), want within 12", got, c.stats())
	}
	// b is used very often, then d takes over.
	for range 300 {
		c.use(b)
	}
	got = -1
	for i := range 100 {
		if c.use(d) {
			got = i
			break
		}
	}
	if got < 0 {
		t.Fatalf("d never displaced b: %+v", c.stats())
	}
	t.Logf("d got a table at use %d", got)
}

func TestHotDisabled(t *testing.T) {
	k := hotKeys(t, 1)[0]
	for _, c := range []*hotCache{newHotCache(0, 3), newHotCache(-1, 3)} {
		for range 10 {
			if c.use(k) {
				t.Fatal("a disabled cache returned a table")
			}
		}
		if st := c.stats(); st.built != 0 || st.tables != 0 {
			t.Fatalf("%+v", st)
		}
	}
	s, err := New([]*x509.Certificate{fx(t).good.Cert}, WithHotThreshold(0))
	if err != nil {
		t.Fatal(err)
	}
	_, _, ch := chainUnder(t, fx(t).good, nil, nil)
	for range 10 {
		s.ResetCaches()
		s.Verify(ch, at("www.example.com"))
	}
	if st := s.Stats(); st.HotBuilt != 0 {
		t.Fatalf("HotBuilt %d with WithHotThreshold(0)", st.HotBuilt)
	}
}

// TestHotP384: a P-384 intermediate under an RSA-4096 anchor (Let's
// Encrypt's ECDSA chain) earns a hot table after tablePayback leaves, as a
// P-256 one does, and the table then verifies every new leaf; its memory
// is counted in Stats.TableBytes. A P-384 anchor has a table from load.
func TestHotP384(t *testing.T) {
	f := fx(t)
	s, err := New([]*x509.Certificate{f.rsa4096.Cert, f.p384.Cert})
	if err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Tables != 1 || st.TableBytes != keytab.Bytes384 {
		t.Fatalf("at load: %d tables, %d bytes; want the P-384 anchor's table", st.Tables, st.TableBytes)
	}
	in := issue(t, caTemplate("P-384 intermediate under RSA-4096"), poolKey(kP384, 2), f.rsa4096)
	for i := range 10 {
		lf := issue(t, leafTemplate(fmt.Sprint("leaf ", i), "www.example.com"), poolKey(kP256, 21), in)
		expect(t, s, []*x509.Certificate{lf.Cert, in.Cert}, at("www.example.com"), accepted, true)
	}
	st := s.Stats()
	if st.HotBuilt != 1 || st.HotTables != 1 || st.HotHits != 10-tablePayback {
		t.Errorf("HotBuilt %d, HotTables %d, HotHits %d: want 1, 1, %d", st.HotBuilt, st.HotTables, st.HotHits, 10-tablePayback)
	}
	if st.TableBytes != 2*keytab.Bytes384 {
		t.Errorf("TableBytes %d, want %d", st.TableBytes, 2*keytab.Bytes384)
	}
	// A corrupted leaf under the hot table is refused.
	lf := issue(t, leafTemplate("bad leaf", "www.example.com"), poolKey(kP256, 21), in)
	expect(t, s, []*x509.Certificate{corrupt(t, lf.Cert), in.Cert}, at("www.example.com"), reasonSignature, false)
	// The P-384 anchor's table serves its links.
	in2 := issue(t, caTemplate("P-256 intermediate under P-384"), poolKey(kP256, 22), f.p384)
	lf = issue(t, leafTemplate("leaf", "www.example.com"), poolKey(kP256, 21), in2)
	expect(t, s, []*x509.Certificate{lf.Cert, in2.Cert}, at("www.example.com"), accepted, true)
	expect(t, s, []*x509.Certificate{lf.Cert, corrupt(t, in2.Cert)}, at("www.example.com"), reasonSignature, false)
	s.ResetCaches()
	if st := s.Stats(); st.TableBytes != keytab.Bytes384 || st.HotTables != 0 {
		t.Errorf("after ResetCaches: %d bytes, %d hot tables", st.TableBytes, st.HotTables)
	}
}
