// Package runca is the certificate authority of one record run: its key
// made for the run in a folder of mode 0700, gone with it, and a leaf
// certificate for each host the forward proxy intercepts (wire/capture).
package runca

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Validity is how long the certificate authority of one record run (and
// every leaf it signs) is valid: long enough for a working session, short
// enough that a copy of its certificate left somewhere soon means nothing.
const Validity = 24 * time.Hour

// CA is the certificate authority of one record run. Its ECDSA P-256 key is
// made for the run, written only into a temporary folder of mode 0700, and
// deleted with the folder by Close. Leaf certificates for the intercepted
// hosts are made on the fly, one per host, and kept in memory for the run.
type CA struct {
	// Dir is the run's temporary folder (mode 0700): ca.pem, ca-key.pem,
	// bundle.pem.
	Dir string
	// CertFile is the CA's certificate (PEM), for NODE_EXTRA_CA_CERTS.
	CertFile string
	// BundleFile is the system's roots followed by the CA's certificate
	// (PEM), for SSL_CERT_FILE, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE and
	// GIT_SSL_CAINFO, which replace the roots rather than add to them.
	BundleFile string
	// Roots names the file the system's roots were read from ("" when none
	// was found: the bundle then holds the CA alone).
	Roots string

	cert     *x509.Certificate
	certDER  []byte
	key      *ecdsa.PrivateKey
	leafKey  *ecdsa.PrivateKey
	notAfter time.Time

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
	serial int64
}

// rootFiles are where the systems keep their roots as one PEM file (the
// list crypto/x509 reads on Linux and the BSDs, and macOS's /etc/ssl/cert.pem).
var rootFiles = []string{
	"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch
	"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
	"/etc/ssl/ca-bundle.pem",                            // openSUSE
	"/etc/pki/tls/cacert.pem",                           // OpenELEC
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
	"/etc/ssl/cert.pem",                                 // Alpine, macOS, OpenBSD
	"/usr/local/etc/ssl/cert.pem",                       // FreeBSD
}

// New makes the certificate authority of one run in a new temporary
// folder under parent ("" is the system's temporary folder). userRoots, when
// not empty, is a PEM file of roots the user already trusts (their own
// SSL_CERT_FILE), put in the bundle before the system's.
func New(parent, userRoots string) (*CA, error) {
	dir, err := os.MkdirTemp(parent, "wirelens-ca-")
	if err != nil {
		return nil, fmt.Errorf("the CA's temporary folder: %w", err)
	}
	ca, err := makeCA(dir, userRoots)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return ca, nil
}

func makeCA(dir, userRoots string) (*CA, error) {
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject: pkix.Name{
			CommonName:   "wirelens record CA " + now.UTC().Format("2006-01-02T15:04:05Z") + " (this run only)",
			Organization: []string{"wirelens (temporary)"},
		},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(Validity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            0,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	ca := &CA{
		Dir:        dir,
		CertFile:   filepath.Join(dir, "ca.pem"),
		BundleFile: filepath.Join(dir, "bundle.pem"),
		cert:       cert, certDER: der, key: key, leafKey: leafKey, notAfter: tmpl.NotAfter,
		leaves: map[string]*tls.Certificate{},
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	if err := WriteNew(filepath.Join(dir, "ca-key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})); err != nil {
		return nil, err
	}
	if err := WriteNew(ca.CertFile, certPEM); err != nil {
		return nil, err
	}
	var bundle bytes.Buffer
	for _, f := range append([]string{userRoots}, rootFiles...) {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil || !bytes.Contains(b, []byte("-----BEGIN CERTIFICATE-----")) {
			continue
		}
		if ca.Roots == "" {
			ca.Roots = f
		}
		bundle.Write(b)
		if !bytes.HasSuffix(b, []byte("\n")) {
			bundle.WriteByte('\n')
		}
		if f != userRoots {
			break // one system file is the whole store
		}
	}
	bundle.Write(certPEM)
	if err := WriteNew(ca.BundleFile, bundle.Bytes()); err != nil {
		return nil, err
	}
	return ca, nil
}

// WriteNew creates path (which must not exist) mode 0600 and writes b: the
// CA's files, and the other files of a run's folder (record's recipes).
func WriteNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Close())
}

// Certificate is the CA's certificate.
func (ca *CA) Certificate() *x509.Certificate { return ca.cert }

// Leaf is the certificate for host (a name or an IP address), signed by
// the CA: made on first use, then kept.
func (ca *CA) Leaf(host string) (*tls.Certificate, error) {
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c, ok := ca.leaves[host]; ok {
		return c, nil
	}
	if ca.key == nil {
		return nil, errors.New("the run's CA was closed")
	}
	ca.serial++
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(ca.serial),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     ca.notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &ca.leafKey.PublicKey, ca.key)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der, ca.certDER}, PrivateKey: ca.leafKey}
	ca.leaves[host] = c
	return c, nil
}

// Close deletes the CA's folder, its key with it. The certificates already
// handed out stay valid until they expire, but nothing can sign new ones.
func (ca *CA) Close() error {
	if ca == nil || ca.Dir == "" {
		return nil
	}
	err := os.RemoveAll(ca.Dir)
	ca.mu.Lock()
	ca.key = nil
	ca.mu.Unlock()
	return err
}
