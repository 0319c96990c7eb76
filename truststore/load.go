package truststore

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// SkippedEntry describes one bundle entry that loading did not turn into a
// trust anchor.
type SkippedEntry struct {
	Source string // the file, or "New" for certificates passed to New
	Index  int    // 1-based position of the entry (PEM block or argument) in Source; 0 for the whole source
	Line   int    // line of the entry's BEGIN marker, 0 when not from PEM
	Reason error
}

func (e SkippedEntry) String() string {
	loc := e.Source
	if e.Index > 0 {
		loc += fmt.Sprintf(" entry %d", e.Index)
	}
	if e.Line > 0 {
		loc += fmt.Sprintf(" (line %d)", e.Line)
	}
	return loc + ": " + e.Reason.Error()
}

// ErrNoCertificates is the Err of a LoadError whose sources held no usable
// certificate.
var ErrNoCertificates = errors.New("truststore: no trust anchor loaded")

// ErrDuplicate is the reason for an entry equal to an anchor already loaded.
var ErrDuplicate = errors.New("duplicate certificate")

// LoadError is returned when loading produced no store: no source could be
// read, or no entry was usable. Skipped lists what was skipped and why.
type LoadError struct {
	Op      string // "LoadFile", "LoadDir", "System" or "New"
	Path    string
	Err     error
	Skipped []SkippedEntry
}

func (e *LoadError) Error() string {
	msg := "truststore: " + e.Op
	if e.Path != "" {
		msg += " " + e.Path
	}
	// Err's own "truststore: " (ErrNoCertificates) is not repeated.
	msg += ": " + strings.TrimPrefix(e.Err.Error(), "truststore: ")
	if n := len(e.Skipped); n > 0 {
		msg += fmt.Sprintf(" (%d entries skipped; first: %s)", n, e.Skipped[0])
	}
	return msg
}

func (e *LoadError) Unwrap() error { return e.Err }

// New returns a store whose anchors are certs, configured by opts. Nil
// certificates, ones that x509.ParseCertificate refuses on re-parsing their
// Raw bytes, and duplicates are skipped and listed by Store.Skipped; no
// usable certificate at all is an error (*LoadError). certs is only read.
func New(certs []*x509.Certificate, opts ...Option) (*Store, error) {
	l := newLoader(opts)
	for i, c := range certs {
		if c == nil {
			l.skip("New", i+1, 0, errors.New("nil certificate"))
			continue
		}
		l.addDER("New", i+1, 0, c.Raw)
	}
	return l.finish("New", "")
}

// LoadFile loads a PEM bundle. Every entry that is not a usable certificate
// (broken PEM, another block type, PEM headers, a certificate that
// x509.ParseCertificate refuses, a duplicate) is skipped without stopping
// the load, and listed by Store.Skipped. Text outside PEM blocks is ignored.
// A file that cannot be read, or that yields no anchor, is an error.
func LoadFile(path string, opts ...Option) (*Store, error) {
	l := newLoader(opts)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &LoadError{Op: "LoadFile", Path: path, Err: err}
	}
	l.addPEM(path, data)
	return l.finish("LoadFile", path)
}

// LoadDir loads every file directly in dir (not its subdirectories), in name
// order, as LoadFile does; files reached twice through links are read once.
func LoadDir(dir string, opts ...Option) (*Store, error) {
	l := newLoader(opts)
	if err := l.addDir(dir); err != nil {
		return nil, &LoadError{Op: "LoadDir", Path: dir, Err: err}
	}
	return l.finish("LoadDir", dir)
}

// Bundle files and directories searched by System when neither SSL_CERT_FILE
// nor SSL_CERT_DIR is set, in order.
var (
	systemFiles = []string{
		"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch
		"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
		"/etc/ssl/ca-bundle.pem",                            // openSUSE
		"/etc/pki/tls/cacert.pem",                           // OpenELEC
		"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
		"/etc/ssl/cert.pem",                                 // Alpine
	}
	systemDirs = []string{
		"/etc/ssl/certs",
		"/etc/pki/tls/certs",
	}
)

// System loads the system's trust anchors. When SSL_CERT_FILE or
// SSL_CERT_DIR (a colon-separated list) is set, exactly those are loaded.
// Otherwise the first bundle file found among the usual Linux locations is
// loaded, or, when there is none, the usual certificate directories.
func System(opts ...Option) (*Store, error) {
	l := newLoader(opts)
	file, dirs := os.Getenv("SSL_CERT_FILE"), os.Getenv("SSL_CERT_DIR")
	var errs []error
	if file != "" || dirs != "" {
		if file != "" {
			if data, err := os.ReadFile(file); err != nil {
				errs = append(errs, err)
			} else {
				l.addPEM(file, data)
			}
		}
		if dirs != "" {
			for _, d := range filepath.SplitList(dirs) {
				if err := l.addDir(d); err != nil {
					errs = append(errs, err)
				}
			}
		}
	} else {
		found := false
		for _, f := range systemFiles {
			data, err := os.ReadFile(f)
			if err == nil {
				l.addPEM(f, data)
				found = true
				break
			}
		}
		if !found {
			for _, d := range systemDirs {
				if err := l.addDir(d); err != nil && !errors.Is(err, os.ErrNotExist) {
					errs = append(errs, err)
				}
			}
		}
	}
	s, err := l.finish("System", "")
	if err != nil && len(errs) > 0 {
		err.(*LoadError).Err = errors.Join(append([]error{ErrNoCertificates}, errs...)...)
	}
	if s != nil {
		for _, e := range errs {
			s.skipped = append(s.skipped, SkippedEntry{Source: "System", Reason: e})
		}
	}
	return s, err
}

type loader struct {
	cfg     config
	start   time.Time
	certs   []*x509.Certificate
	seen    map[[32]byte]string // SHA-256 of DER → where it was first loaded
	files   []os.FileInfo
	skipped []SkippedEntry
}

func newLoader(opts []Option) *loader {
	l := &loader{cfg: defaultConfig(), start: time.Now(), seen: make(map[[32]byte]string)}
	for _, o := range opts {
		o(&l.cfg)
	}
	return l
}

func (l *loader) skip(source string, index, line int, reason error) {
	l.skipped = append(l.skipped, SkippedEntry{Source: source, Index: index, Line: line, Reason: reason})
}

func (l *loader) addDER(source string, index, line int, der []byte) {
	c, err := x509.ParseCertificate(der)
	if err != nil {
		l.skip(source, index, line, err)
		return
	}
	sum := sha256.Sum256(c.Raw)
	if first, ok := l.seen[sum]; ok {
		l.skip(source, index, line, fmt.Errorf("%w (first loaded from %s)", ErrDuplicate, first))
		return
	}
	where := source
	if index > 0 {
		where = fmt.Sprintf("%s entry %d", source, index)
	}
	l.seen[sum] = where
	l.certs = append(l.certs, c)
}

var beginMarker = []byte("-----BEGIN ")

// addPEM loads every PEM block of data. Each block is cut at the next BEGIN
// marker that starts a line, so a broken block is reported on its own and
// never hides or breaks the blocks after it.
func (l *loader) addPEM(source string, data []byte) {
	var starts []int
	for off := 0; ; {
		i := bytes.Index(data[off:], beginMarker)
		if i < 0 {
			break
		}
		p := off + i
		if p == 0 || data[p-1] == '\n' || data[p-1] == '\r' {
			starts = append(starts, p)
		}
		off = p + len(beginMarker)
	}
	if len(starts) == 0 {
		l.skip(source, 0, 0, errors.New("no PEM block"))
		return
	}
	line, lineAt := 1, 0
	for i, p := range starts {
		line += bytes.Count(data[lineAt:p], []byte{'\n'})
		lineAt = p
		end := len(data)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		block, _ := pem.Decode(data[p:end])
		switch {
		case block == nil:
			l.skip(source, i+1, line, errors.New("malformed PEM block"))
		case block.Type != "CERTIFICATE":
			l.skip(source, i+1, line, fmt.Errorf("PEM block of type %q, not CERTIFICATE", block.Type))
		case len(block.Headers) != 0:
			l.skip(source, i+1, line, errors.New("PEM block with headers"))
		default:
			l.addDER(source, i+1, line, block.Bytes)
		}
	}
}

func (l *loader) addDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p) // follows links
		if err != nil {
			l.skip(p, 0, 0, err)
			continue
		}
		if fi.IsDir() {
			continue
		}
		dup := false
		for _, o := range l.files {
			if os.SameFile(o, fi) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		l.files = append(l.files, fi)
		data, err := os.ReadFile(p)
		if err != nil {
			l.skip(p, 0, 0, err)
			continue
		}
		l.addPEM(p, data)
	}
	return nil
}

func (l *loader) finish(op, path string) (*Store, error) {
	if len(l.certs) == 0 {
		return nil, &LoadError{Op: op, Path: path, Err: ErrNoCertificates, Skipped: l.skipped}
	}
	s := &Store{
		cfg:       l.cfg,
		bySubject: make(map[string][]*anchor),
		byRaw:     make(map[string]*anchor),
		byKey:     make(map[keyID]keyTable),
		pool:      x509.NewCertPool(),
		skipped:   l.skipped,
		hot:       newHotCache(l.cfg.hotTables, l.cfg.hotThreshold),
		links:     newLRU[linkKey, struct{}](l.cfg.linkCache),
	}
	if l.cfg.hotThreshold <= 0 {
		s.hot = newHotCache(0, 0)
	}
	var toTable []*anchor
	for _, c := range l.certs {
		a := &anchor{cert: c}
		a.id, a.idOK = keyIDOf(c.PublicKey)
		if pub := ecdsaKey(c); a.idOK && pub != nil && tableCurve(pub) && (l.cfg.maxTables < 0 || len(toTable) < l.cfg.maxTables) {
			toTable = append(toTable, a)
		}
		s.anchors = append(s.anchors, a)
		s.bySubject[string(c.RawSubject)] = append(s.bySubject[string(c.RawSubject)], a)
		s.byRaw[string(c.Raw)] = a
		s.pool.AddCert(c)
	}
	buildTables(toTable)
	for _, a := range toTable {
		if a.table != nil {
			s.tables++
			s.tableBytes += tableBytesOf(ecdsaKey(a.cert))
			s.byKey[a.id] = a.table
		}
	}
	s.loadTime = time.Since(l.start)
	return s, nil
}

// buildTables builds the anchors' tables in parallel over the available
// cores. A key the table builder refuses simply gets no table.
func buildTables(as []*anchor) {
	workers := min(runtime.GOMAXPROCS(0), len(as))
	var wg sync.WaitGroup
	next := make(chan *anchor)
	for range workers {
		wg.Go(func() {
			for a := range next {
				if t, err := newKeyTable(ecdsaKey(a.cert)); err == nil {
					a.table = t
				}
			}
		})
	}
	for _, a := range as {
		next <- a
	}
	close(next)
	wg.Wait()
}
