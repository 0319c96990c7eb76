package provider

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
)

// TestQUIC runs a real QUIC handshake over loopback between a quic-go server
// configured with ServerConfig and a quic-go client, and echoes one stream.
func TestQUIC(t *testing.T) {
	t.Setenv("QUIC_GO_DISABLE_RECEIVE_BUFFER_WARNING", "true")
	for _, alg := range testAlgorithms {
		t.Run(alg, func(t *testing.T) {
			id := newIdentity(t, alg, "localhost")
			scfg := ServerConfig(NewIdentities(id))
			scfg.NextProtos = []string{"p256tls-echo"}

			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			serverUDP, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			defer serverUDP.Close()
			ln, err := quic.Listen(serverUDP, scfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()

			served := make(chan error, 1)
			go func() {
				conn, err := ln.Accept(ctx)
				if err != nil {
					served <- err
					return
				}
				str, err := conn.AcceptStream(ctx)
				if err != nil {
					served <- err
					return
				}
				// Echo until the client closes its side.
				_, err = io.Copy(str, str)
				str.Close()
				served <- err
				// Wait for the client to close the connection.
				<-conn.Context().Done()
			}()

			before := id.Stats()
			clientUDP, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
			if err != nil {
				t.Fatal(err)
			}
			defer clientUDP.Close()
			ccfg := clientConfig("localhost")
			ccfg.NextProtos = []string{"p256tls-echo"}
			conn, err := quic.Dial(ctx, clientUDP, ln.Addr(), ccfg, nil)
			if err != nil {
				t.Fatalf("QUIC handshake: %v", err)
			}
			cs := conn.ConnectionState().TLS
			if cs.Version != tls.VersionTLS13 || !cs.PeerCertificates[0].Equal(id.Leaf) {
				t.Fatalf("negotiated %s with %v", tls.VersionName(cs.Version), cs.PeerCertificates[0].Subject)
			}
			str, err := conn.OpenStreamSync(ctx)
			if err != nil {
				t.Fatal(err)
			}
			msg := []byte("signed by " + alg + " over QUIC")
			if _, err := str.Write(msg); err != nil {
				t.Fatal(err)
			}
			str.Close()
			got, err := io.ReadAll(str)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, msg) {
				t.Fatalf("echoed %q", got)
			}
			if err := <-served; err != nil {
				t.Fatalf("server: %v", err)
			}
			conn.CloseWithError(0, "done")
			wantSigned(t, id, statsDelta(id.Stats(), before), 1)
		})
	}
}
