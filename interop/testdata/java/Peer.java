// A small TLS client and echo server on JSSE, for the interop matrix, with
// the provider chosen by flag: SunJSSE (the JDK's) or BCJSSE (Bouncy Castle).
//
//   java Peer client PROVIDER NAME PORT VERSION SUITE CAFILE P12FILE LINE
//   java Peer server PROVIDER -    PORT VERSION -     CAFILE P12FILE REQUIRE
//
// VERSION is TLSv1.3, TLSv1.2, ... or "" for the default; SUITE an IANA name
// or ""; P12FILE a PKCS #12 file (password "interop") or "". The client
// connects to 127.0.0.1 and verifies NAME (SNI and HTTPS endpoint
// identification), sends LINE, and prints what it reads until the server
// closes. The server echoes the first line of each connection.
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;
import java.security.*;
import java.security.cert.*;
import java.util.*;
import javax.net.ssl.*;

public class Peer {
    // Bouncy Castle logs through java.util.logging at INFO; keep the output
    // to our own lines and the errors.
    static final java.util.logging.Logger bcLog = java.util.logging.Logger.getLogger("org.bouncycastle");

    public static void main(String[] a) throws Exception {
        bcLog.setLevel(java.util.logging.Level.SEVERE);
        String mode = a[0], prov = a[1], name = a[2], version = a[4], suite = a[5], ca = a[6], p12 = a[7];
        int port = Integer.parseInt(a[3]);
        String kmfAlg = "SunX509", tmfAlg = "PKIX";
        if (prov.equals("BCJSSE")) {
            Security.insertProviderAt((Provider) Class.forName("org.bouncycastle.jce.provider.BouncyCastleProvider").getConstructor().newInstance(), 1);
            Security.insertProviderAt((Provider) Class.forName("org.bouncycastle.jsse.provider.BouncyCastleJsseProvider").getConstructor().newInstance(), 2);
            kmfAlg = "PKIX";
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        try (InputStream in = new FileInputStream(ca)) {
            for (java.security.cert.Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trust.setCertificateEntry("ca" + (i++), c);
            }
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(tmfAlg, prov);
        tmf.init(trust);
        KeyManager[] kms = null;
        if (!p12.isEmpty()) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(p12)) {
                ks.load(in, "interop".toCharArray());
            }
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(kmfAlg, prov);
            kmf.init(ks, "interop".toCharArray());
            // Present the one key whatever CAs the server names, so that a
            // certificate from a foreign CA reaches the server.
            X509ExtendedKeyManager km = (X509ExtendedKeyManager) kmf.getKeyManagers()[0];
            String alias = ks.aliases().nextElement();
            kms = new KeyManager[] {new OneKey(km, alias)};
        }
        SSLContext ctx = SSLContext.getInstance("TLS", prov);
        ctx.init(kms, tmf.getTrustManagers(), null);
        if (mode.equals("client")) {
            client(ctx, name, port, version, suite, a[8]);
        } else {
            server(ctx, port, version, a[8].equals("require"));
        }
    }

    static class OneKey extends X509ExtendedKeyManager {
        final X509ExtendedKeyManager km;
        final String alias;
        OneKey(X509ExtendedKeyManager km, String alias) { this.km = km; this.alias = alias; }
        public String[] getClientAliases(String t, Principal[] i) { return new String[] {alias}; }
        public String chooseClientAlias(String[] t, Principal[] i, Socket s) { return alias; }
        public String chooseEngineClientAlias(String[] t, Principal[] i, SSLEngine e) { return alias; }
        public String[] getServerAliases(String t, Principal[] i) { return km.getServerAliases(t, i); }
        public String chooseServerAlias(String t, Principal[] i, Socket s) { return km.chooseServerAlias(t, i, s); }
        public String chooseEngineServerAlias(String t, Principal[] i, SSLEngine e) { return km.chooseEngineServerAlias(t, i, e); }
        public X509Certificate[] getCertificateChain(String a) { return km.getCertificateChain(a); }
        public PrivateKey getPrivateKey(String a) { return km.getPrivateKey(a); }
    }

    static void configure(SSLSocket s, String version, String suite) {
        if (!version.isEmpty()) s.setEnabledProtocols(new String[] {version});
        if (!suite.isEmpty()) s.setEnabledCipherSuites(new String[] {suite});
    }

    static void client(SSLContext ctx, String name, int port, String version, String suite, String line) {
        try {
            Socket raw = new Socket();
            raw.connect(new InetSocketAddress("127.0.0.1", port), 10000);
            raw.setSoTimeout(15000);
            SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket(raw, name, port, true);
            configure(s, version, suite);
            SSLParameters p = s.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            p.setServerNames(List.of(new SNIHostName(name)));
            s.setSSLParameters(p);
            s.startHandshake();
            SSLSession sess = s.getSession();
            System.out.println("negotiated " + sess.getProtocol() + " " + sess.getCipherSuite());
            OutputStream out = s.getOutputStream();
            out.write(line.getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            String l;
            while ((l = r.readLine()) != null) System.out.println(l);
            s.close();
        } catch (Exception e) {
            System.out.println("error: " + e);
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) System.out.println("caused by: " + c);
            System.exit(1);
        }
    }

    static void server(SSLContext ctx, int port, String version, boolean require) throws Exception {
        SSLServerSocket ss = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket(port, 50, InetAddress.getByName("127.0.0.1"));
        if (!version.isEmpty()) ss.setEnabledProtocols(new String[] {version});
        ss.setNeedClientAuth(require);
        System.out.println("READY " + port);
        System.out.flush();
        while (true) {
            SSLSocket s = (SSLSocket) ss.accept();
            try {
                s.setSoTimeout(15000);
                BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                String l = r.readLine();
                SSLSession sess = s.getSession();
                System.out.println("accepted " + sess.getProtocol() + " " + sess.getCipherSuite());
                if (require) System.out.println("client " + ((X509Certificate) sess.getPeerCertificates()[0]).getSubjectX500Principal());
                if (l != null) {
                    OutputStream out = s.getOutputStream();
                    out.write((l + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (Exception e) {
                System.out.println("error: " + e);
            } finally {
                s.close();
            }
        }
    }
}
