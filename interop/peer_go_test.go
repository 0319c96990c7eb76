//go:build interop

package interop

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Go's crypto/tls without the provider, in process: the standard library
// as an independent peer of the provider's signer and trust store.

var goPeerClient = &peer{Name: "Go crypto/tls client", Stack: "Go crypto/tls", Package: "golang", Version: func() string { return runtime.Version() }}
var goPeerServer = &peer{Name: "Go crypto/tls server", Stack: "Go crypto/tls", Package: "golang", Version: func() string { return runtime.Version() }}

func init() {
	register(func(e *Env) []Case {
		cs := clientCases(goPeerClient, goClient, clientCaps{
			Versions:  []string{"1.3", "1.2", "1.1", "1.0"},
			NoHash:    "crypto/tls has no setting for the signature schemes a client offers",
			UnknownCA: "certificate signed by unknown authority",
			WrongHost: "not wrong.interop.test",
			Rejected:  "remote error",
		})
		cs = append(cs, serverCases(goPeerServer, goPeerServe, serverCaps{
			Versions: []string{"1.3", "1.2"},
			Rejected: "certificate required|bad certificate",
		})...)
		return cs
	})
}

func poolFrom(c *C, file string) *x509.CertPool {
	data, err := os.ReadFile(file)
	if err != nil {
		c.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(data)
	return pool
}

func goClient(c *C, o pc) (string, error) {
	cfg := &tls.Config{RootCAs: poolFrom(c, o.CA), ServerName: o.Name}
	if v, ok := tlsVersions[o.Ver]; ok {
		cfg.MinVersion, cfg.MaxVersion = v, v
	} else {
		cfg.MinVersion = tls.VersionTLS12
	}
	if o.Suite != "" {
		cfg.CipherSuites = []uint16{suiteIDs[o.Suite]}
	}
	if o.Cert != nil {
		// Sent whatever CAs the server names, so that a foreign
		// certificate reaches the server.
		cert := o.Cert.tlsCertificate()
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &cert, nil }
	}
	d := &net.Dialer{Timeout: 10 * time.Second}
	conn, err := tls.DialWithDialer(d, "tcp", o.Addr, cfg)
	if err != nil {
		return err.Error(), err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(15 * time.Second))
	if _, err := io.WriteString(conn, o.Line); err != nil {
		return err.Error(), err
	}
	b, err := io.ReadAll(conn)
	out := string(b)
	if err != nil {
		out += "\n" + err.Error()
	}
	return out, err
}

func goPeerServe(c *C, o ps) *proc {
	cfg := &tls.Config{Certificates: []tls.Certificate{o.Cred.tlsCertificate()}}
	if v, ok := tlsVersions[o.Ver]; ok {
		cfg.MinVersion, cfg.MaxVersion = v, v
	}
	if o.RequireClient {
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
		cfg.ClientCAs = poolFrom(c, o.ClientCA)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:"+strconv.Itoa(o.Port), cfg)
	if err != nil {
		c.Fatal(err)
	}
	c.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(15 * time.Second))
				buf := make([]byte, 1024)
				n, err := conn.Read(buf)
				if err != nil {
					return
				}
				io.WriteString(conn, strings.TrimRight(string(buf[:n]), "\n")+"\n")
			}()
		}
	}()
	return nil
}
