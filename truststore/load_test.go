package truststore

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/p256tls/p256tls/internal/keytab"
)

func pemOf(c *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})
}

func TestLoadFileReportsBadEntries(t *testing.T) {
	f := fx(t)
	var b bytes.Buffer
	b.WriteString("# a comment before the first block\n")
	b.Write(pemOf(f.good.Cert))                                                                                                                  // 1: ok
	b.WriteString("-----BEGIN CERTIFICATE-----\nnot base64 !!!\n-----END CERTIFICATE-----\n")                                                    // 2: broken PEM
	b.Write(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}))                                                         // 3: wrong type
	b.Write(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{0x30, 0x03, 1, 2, 3}}))                                             // 4: not a certificate
	b.Write(pemOf(f.good.Cert))                                                                                                                  // 5: duplicate
	b.Write(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: f.p384.Cert.Raw})) // 6: headers
	b.WriteString("-----BEGIN CERTIFICATE-----\nMIIB\n")                                                                                         // 7: truncated, no END
	b.Write(pemOf(f.p384.Cert))                                                                                                                  // 8: ok
	b.Write(pemOf(f.good2.Cert))                                                                                                                 // 9: ok
	path := filepath.Join(t.TempDir(), "bundle.pem")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(s.Anchors()); got != 3 {
		t.Errorf("anchors = %d, want 3", got)
	}
	sk := s.Skipped()
	wantIdx := []int{2, 3, 4, 5, 6, 7}
	if len(sk) != len(wantIdx) {
		t.Fatalf("skipped %v", sk)
	}
	for i, e := range sk {
		if e.Index != wantIdx[i] || e.Source != path || e.Line == 0 || e.Reason == nil {
			t.Errorf("skipped[%d] = %v (index %d), want index %d", i, e, e.Index, wantIdx[i])
		}
		t.Log(e)
	}
	if !errors.Is(sk[3].Reason, ErrDuplicate) {
		t.Errorf("entry 5: %v, want a duplicate", sk[3].Reason)
	}
	st := s.Stats()
	if st.Anchors != 3 || st.Tables != 3 || st.Skipped != 6 || st.TableBytes != 2*keytab.Bytes+keytab.Bytes384 {
		t.Errorf("stats %+v", st)
	}
}

func TestLoadEmptyIsError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "empty.pem")
	os.WriteFile(p, []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"), 0o644)
	s, err := LoadFile(p)
	var le *LoadError
	if s != nil || !errors.As(err, &le) || !errors.Is(err, ErrNoCertificates) || len(le.Skipped) != 1 {
		t.Fatalf("LoadFile = %v, %v", s, err)
	}
	if _, err := LoadFile(filepath.Join(dir, "missing.pem")); err == nil {
		t.Error("missing file loaded")
	}
	if _, err := New(nil); !errors.Is(err, ErrNoCertificates) {
		t.Errorf("New(nil) = %v", err)
	}
	if _, err := LoadDir(dir); !errors.Is(err, ErrNoCertificates) {
		t.Errorf("LoadDir = %v", err)
	}
}

func TestNewSkipsNilAndDuplicates(t *testing.T) {
	f := fx(t)
	s, err := New([]*x509.Certificate{f.good.Cert, nil, f.good.Cert, f.good2.Cert, {Raw: []byte{1}}}, WithMaxTables(1))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Anchors()); n != 2 {
		t.Errorf("anchors %d", n)
	}
	if n := len(s.Skipped()); n != 3 {
		t.Errorf("skipped %v", s.Skipped())
	}
	if st := s.Stats(); st.Tables != 1 {
		t.Errorf("tables %d, want 1 (WithMaxTables)", st.Tables)
	}
}

func TestLoadDirAndSystemEnv(t *testing.T) {
	f := fx(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.pem"), pemOf(f.good.Cert), 0o644)
	os.WriteFile(filepath.Join(dir, "b.pem"), append(pemOf(f.good2.Cert), pemOf(f.good.Cert)...), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644)
	os.Symlink("a.pem", filepath.Join(dir, "1234abcd.0"))
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "c.pem"), pemOf(f.p384.Cert), 0o644)
	s, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Anchors()); n != 2 {
		t.Errorf("anchors %d", n)
	}
	// b.pem's second block is a duplicate; notes.txt has no PEM block; the
	// link to a.pem is read once.
	var reasons []string
	for _, e := range s.Skipped() {
		reasons = append(reasons, e.String())
	}
	if len(reasons) != 2 || !strings.Contains(reasons[0], "b.pem entry 2") || !strings.Contains(reasons[1], "notes.txt") {
		t.Errorf("skipped %q", reasons)
	}

	t.Setenv("SSL_CERT_FILE", filepath.Join(dir, "b.pem"))
	t.Setenv("SSL_CERT_DIR", "")
	s, err = System()
	if err != nil || len(s.Anchors()) != 2 {
		t.Fatalf("System with SSL_CERT_FILE: %v", err)
	}
	t.Setenv("SSL_CERT_FILE", "")
	t.Setenv("SSL_CERT_DIR", filepath.Join(dir, "sub")+":"+filepath.Join(dir, "none"))
	s, err = System()
	if err != nil || len(s.Anchors()) != 1 || len(s.Skipped()) != 1 {
		t.Fatalf("System with SSL_CERT_DIR: %v %v", err, s.Skipped())
	}
}

// TestSystemBundle loads the machine's bundle (System: SSL_CERT_FILE and
// SSL_CERT_DIR, else the usual locations) and checks what Stats reports of
// it: a public Web PKI bundle (Mozilla's set, as Debian's ca-certificates
// ships it) has P-256, P-384, RSA-2048 and RSA-4096 anchors; every P-256
// and P-384 anchor has a table, which verification finds by key, and no
// other anchor has one; TableBytes is keytab.Bytes per P-256 table and
// keytab.Bytes384 per P-384 one, each within 16 KiB; LoadTime lies within
// the call. WithMaxTables(k) builds tables for the first k such anchors
// only, and WithMaxTables(0) for none. The test is skipped when the
// machine has no bundle.
func TestSystemBundle(t *testing.T) {
	start := time.Now()
	s, err := System()
	elapsed := time.Since(start)
	if err != nil {
		t.Skipf("no system bundle: %v", err)
	}
	st := s.Stats()
	kinds := map[string]int{}
	for _, c := range s.Anchors() {
		switch pub := c.PublicKey.(type) {
		case *ecdsa.PublicKey:
			kinds[pub.Curve.Params().Name]++
		case *rsa.PublicKey:
			kinds[fmt.Sprintf("RSA-%d", pub.N.BitLen())]++
		default:
			kinds[fmt.Sprintf("%T", pub)]++
		}
	}
	t.Logf("system bundle: %d anchors %v (%d skipped, %d of them duplicates), %d tables, %d KiB of tables, loaded in %v",
		st.Anchors, kinds, st.Skipped, st.Duplicates, st.Tables, st.TableBytes>>10, st.LoadTime)
	if kinds["P-256"]+kinds["P-384"] == 0 {
		// A bundle of RSA roots only (a custom SSL_CERT_FILE) leaves no
		// table to check; Mozilla's set has both curves.
		t.Skipf("the system bundle has no P-256 or P-384 anchor: no table to check")
	}
	if st.Anchors != len(s.Anchors()) || st.Duplicates > st.Skipped || st.Skipped != len(s.Skipped()) {
		t.Errorf("stats %+v do not match %d anchors and %d skipped entries", st, len(s.Anchors()), len(s.Skipped()))
	}
	if st.LoadTime <= 0 || st.LoadTime > elapsed {
		t.Errorf("LoadTime %v, want within the %v System took", st.LoadTime, elapsed)
	}
	for _, b := range []int{keytab.Bytes, keytab.Bytes384} {
		if b <= 0 || b > 16<<10 {
			t.Fatalf("a table of %d bytes: not within 16 KiB", b)
		}
	}
	checkAnchorTables(t, s, -1)
	all := st.Tables
	for _, k := range []int{0, all / 2} {
		sk, err := System(WithMaxTables(k))
		if err != nil {
			t.Fatal(err)
		}
		checkAnchorTables(t, sk, k)
	}
}

// checkAnchorTables checks that the first max P-256 and P-384 anchors of s
// (all of them when max < 0), in load order, have a table that s.byKey
// holds under their key, that no other anchor has one, and that Stats
// counts them and their memory.
func checkAnchorTables(t *testing.T, s *Store, max int) {
	t.Helper()
	tables, bytes := 0, 0
	for _, a := range s.anchors {
		pub, _ := a.cert.PublicKey.(*ecdsa.PublicKey)
		size := 0
		switch {
		case pub != nil && pub.Curve == elliptic.P256():
			size = keytab.Bytes
		case pub != nil && pub.Curve == elliptic.P384():
			size = keytab.Bytes384
		}
		want := size > 0 && (max < 0 || tables < max)
		if got := a.table != nil; got != want {
			t.Errorf("WithMaxTables(%d): anchor %q (%T) has a table: %v, want %v", max, a.cert.Subject, a.cert.PublicKey, got, want)
			continue
		}
		if want {
			if !a.idOK || s.byKey[a.id] == nil {
				t.Errorf("WithMaxTables(%d): the table of %q is not found by its key", max, a.cert.Subject)
			}
			tables++
			bytes += size
		}
	}
	if max >= 0 && tables != max {
		t.Errorf("WithMaxTables(%d): %d tables", max, tables)
	}
	if st := s.Stats(); st.Tables != tables || st.TableBytes != bytes {
		t.Errorf("WithMaxTables(%d): Stats has %d tables of %d bytes, want %d of %d", max, st.Tables, st.TableBytes, tables, bytes)
	}
}

// FuzzLoadPEM: the loader never panics, and every PEM block is either an
// anchor or a reported skip.
func FuzzLoadPEM(f *testing.F) {
	fix := newFixture(f)
	f.Add(pemOf(fix.good.Cert))
	f.Add(append(pemOf(fix.good.Cert), pemOf(fix.p384.Cert)...))
	f.Add([]byte("-----BEGIN CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"))
	f.Add([]byte("junk\r\n-----BEGIN X-----\r\nAQID\r\n-----END X-----\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := newLoader(nil)
		l.addPEM("fuzz", data)
		blocks := 0
		for i := 0; ; {
			j := bytes.Index(data[i:], beginMarker)
			if j < 0 {
				break
			}
			p := i + j
			if p == 0 || data[p-1] == '\n' || data[p-1] == '\r' {
				blocks++
			}
			i = p + len(beginMarker)
		}
		if blocks == 0 {
			blocks = 1 // reported as "no PEM block"
		}
		if got := len(l.certs) + len(l.skipped); got != blocks {
			t.Fatalf("%d blocks, %d anchors + %d skipped", blocks, len(l.certs), len(l.skipped))
		}
		s, err := l.finish("fuzz", "")
		if (s == nil) == (err == nil) {
			t.Fatal("finish: store and error both set or both nil")
		}
	})
}
