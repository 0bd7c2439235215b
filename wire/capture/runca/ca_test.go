package runca

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestCAIsTheRunsAndGoesWithIt: the CA is ECDSA P-256, valid for a day at
// most, its key written only in a 0700 folder (0600 file), each host's
// leaf made once; Close deletes the folder with the key, and no leaf can
// be made after.
func TestCAIsTheRunsAndGoesWithIt(t *testing.T) {
	ca, err := New(t.TempDir(), "")
	if err != nil {
		t.Fatal(err)
	}
	c := ca.Certificate()
	pub, ok := c.PublicKey.(*ecdsa.PublicKey)
	if !ok || pub.Curve != elliptic.P256() || !c.IsCA {
		t.Errorf("CA key %T (CA %v), want ECDSA P-256", c.PublicKey, c.IsCA)
	}
	if life := c.NotAfter.Sub(time.Now()); life > Validity || life < Validity-time.Minute {
		t.Errorf("the CA is valid for %v more, want about %v", life, Validity)
	}
	st, err := os.Stat(ca.Dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("the CA's folder: %v %v, want mode 0700", st.Mode(), err)
	}
	key := filepath.Join(ca.Dir, "ca-key.pem")
	if st, err := os.Stat(key); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v, want mode 0600", err)
	}
	bundle, err := os.ReadFile(ca.BundleFile)
	caPEM, _ := os.ReadFile(ca.CertFile)
	if err != nil || !bytes.HasSuffix(bundle, caPEM) {
		t.Errorf("the bundle does not end with the CA's certificate")
	}
	if ca.Roots != "" && len(bundle) <= len(caPEM) {
		t.Errorf("the bundle holds no system roots though %s was read", ca.Roots)
	}
	a, err := ca.Leaf("api.openai.com")
	b, _ := ca.Leaf("api.openai.com")
	o, _ := ca.Leaf("api.anthropic.com")
	if err != nil || a != b || a == o {
		t.Errorf("leaves are not one per host: %v", err)
	}
	leaf, _ := x509.ParseCertificate(a.Certificate[0])
	if err := leaf.VerifyHostname("api.openai.com"); err != nil || leaf.CheckSignatureFrom(c) != nil {
		t.Errorf("the leaf is not the host's, signed by the CA: %v", err)
	}
	if err := ca.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(key); !os.IsNotExist(err) {
		t.Errorf("the CA's key is still there after Close: %v", err)
	}
	if _, err := os.Stat(ca.Dir); !os.IsNotExist(err) {
		t.Errorf("the CA's folder is still there after Close: %v", err)
	}
	if _, err := ca.Leaf("api.x.ai"); err == nil {
		t.Errorf("a leaf was made after Close")
	}
}
