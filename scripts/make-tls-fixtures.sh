#!/usr/bin/env bash
# Makes the TLS test fixtures in Tests/Fixtures/TLS with the `openssl` command (3.0 or later):
# a test CA and server certificates it signs, each with its private key (EC P-256, PEM):
#   ca.pem, ca.key                  the test CA (CN "ReactiveNetworking Test CA")
#   ca-dir/<subject hash>.0         the CA again, named as SSL_CERT_DIR wants it (`openssl rehash`)
#   localhost.pem, .key             DNS:localhost, IP:127.0.0.1, IP:::1
#   expired.pem, .key               the same names, valid in 2000 only
#   not-yet-valid.pem, .key         the same names, valid from 2099
#   other-name.pem, .key            DNS:other.example.test only
#   wildcard.pem, .key              DNS:*.wild.test and the partial wildcard DNS:f*.partial.test
#   ip-as-dns-name.pem, .key        DNS:127.0.0.1 and no IP name (an IP literal must not match it)
#   self-signed.pem, .key           localhost's names, signed by its own key (no CA)
# Everything but the expired and not-yet-valid ones is valid from 2025 to 2075, so the committed
# files serve for decades and CI needs no generator. Run from anywhere; it replaces the folder.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Tests/Fixtures/TLS
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

valid_from=20250101000000Z
valid_until=20750101000000Z

cat >"$work/ca.cnf" <<'EOF'
[ ca ]
default_ca = test_ca
[ test_ca ]
dir = WORK
database = $dir/index.txt
new_certs_dir = $dir/issued
serial = $dir/serial
default_md = sha256
policy = any_name
unique_subject = no
copy_extensions = none
[ any_name ]
commonName = supplied
[ req ]
distinguished_name = subject
prompt = no
[ subject ]
CN = placeholder
[ ca_extensions ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
EOF
sed -i "s|WORK|$work|" "$work/ca.cnf"
mkdir -p "$work/issued"
: >"$work/index.txt"
echo 1000 >"$work/serial"

new_key() {
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null
}

rm -rf "$out"
mkdir -p "$out/ca-dir"

# The CA: self-signed, then reissued by `openssl ca` so its dates are the fixed ones above.
new_key "$out/ca.key"
openssl req -new -config "$work/ca.cnf" -key "$out/ca.key" -subj "/CN=ReactiveNetworking Test CA" -out "$work/ca.csr"
openssl ca -batch -notext -config "$work/ca.cnf" -selfsign -keyfile "$out/ca.key" -in "$work/ca.csr" \
  -startdate "$valid_from" -enddate "$valid_until" -extensions ca_extensions -out "$out/ca.pem" 2>/dev/null
cp "$out/ca.pem" "$out/ca-dir/$(openssl x509 -in "$out/ca.pem" -noout -subject_hash).0"

# A server certificate signed by the CA: name, common name, subject alternative names, dates.
leaf() {
  local name=$1 common=$2 names=$3 from=$4 until=$5
  new_key "$out/$name.key"
  cat >"$work/$name.ext" <<EOF
[ leaf ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = $names
EOF
  openssl req -new -config "$work/ca.cnf" -key "$out/$name.key" -subj "/CN=$common" -out "$work/$name.csr"
  openssl ca -batch -notext -config "$work/ca.cnf" -cert "$out/ca.pem" -keyfile "$out/ca.key" -in "$work/$name.csr" \
    -startdate "$from" -enddate "$until" -extfile "$work/$name.ext" -extensions leaf -out "$out/$name.pem" 2>/dev/null
}

localhost_names="DNS:localhost, IP:127.0.0.1, IP:::1"
leaf localhost localhost "$localhost_names" "$valid_from" "$valid_until"
leaf expired localhost "$localhost_names" 20000101000000Z 20010101000000Z
leaf not-yet-valid localhost "$localhost_names" 20990101000000Z 21000101000000Z
leaf other-name other.example.test "DNS:other.example.test" "$valid_from" "$valid_until"
leaf wildcard "*.wild.test" "DNS:*.wild.test, DNS:f*.partial.test" "$valid_from" "$valid_until"
leaf ip-as-dns-name 127.0.0.1 "DNS:127.0.0.1" "$valid_from" "$valid_until"

# Self-signed: the same names as localhost, its own issuer.
new_key "$out/self-signed.key"
cat >"$work/self.ext" <<EOF
[ self ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyCertSign
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
subjectAltName = $localhost_names
EOF
openssl req -new -config "$work/ca.cnf" -key "$out/self-signed.key" -subj "/CN=localhost" -out "$work/self.csr"
openssl ca -batch -notext -config "$work/ca.cnf" -selfsign -keyfile "$out/self-signed.key" -in "$work/self.csr" \
  -startdate "$valid_from" -enddate "$valid_until" -extfile "$work/self.ext" -extensions self -out "$out/self-signed.pem" 2>/dev/null

# Each certificate must say what its name promises.
openssl verify -CAfile "$out/ca.pem" "$out/localhost.pem" "$out/other-name.pem" "$out/wildcard.pem" "$out/ip-as-dns-name.pem" >/dev/null
expect_refusal() {
  local said
  said=$(openssl verify -CAfile "$out/ca.pem" "$out/$1.pem" 2>&1 || true)
  grep -qF "$2" <<<"$said" || { echo "$1.pem: expected \"$2\", got: $said" >&2; exit 1; }
}
expect_refusal expired "certificate has expired"
expect_refusal not-yet-valid "certificate is not yet valid"
expect_refusal self-signed "self-signed certificate"
ls "$out" "$out/ca-dir"
