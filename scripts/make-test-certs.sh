#!/usr/bin/env bash
# Makes certificates for a TLS cluster on this machine (tests, local trials):
#   DIR/ca.{pem,key}           CA that signs the servers' certificates
#   DIR/coordinator.{pem,key}  the coordinator's server certificate
#   DIR/worker.{pem,key}       the workers' server certificate
#   DIR/client-ca.{pem,key}    CA that signs only the coordinator's client
#                              certificate: workers given --client-ca
#                              DIR/client-ca.pem accept the coordinator alone
#   DIR/coordinator-client.{pem,key}  that client certificate
#   DIR/tokens, DIR/token      a random bearer token (tokens file / client file)
# Server names: localhost, 127.0.0.1 and the Kubernetes Service names
# arbiter-coordinator and arbiter-worker (with their .svc suffixes' prefixes).
# The workers' certificate names no address, only DNS names (as a certificate
# shared by every worker pod must): a coordinator given
# --workers dns:///NAME:PORT checks it against NAME.
# Not for production: keys are unencrypted and valid for 30 days.
#
#   scripts/make-test-certs.sh DIR
set -euo pipefail
dir=${1:?usage: make-test-certs.sh DIR}
mkdir -p "$dir"
cd "$dir"
days=30
san="DNS:localhost,IP:127.0.0.1,DNS:arbiter-coordinator,DNS:arbiter-worker,DNS:*.arbiter-worker"
worker_san="DNS:localhost,DNS:arbiter-worker,DNS:arbiter-worker.arbiter.svc"
worker_san+=",DNS:arbiter-worker.arbiter.svc.cluster.local"

ca() {  # name
  openssl req -x509 -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.pem" -days "$days" \
    -subj "/CN=arbiter test $1" 2>/dev/null
}
leaf() {  # name issuer usage [subjectAltName]
  openssl req -newkey rsa:2048 -nodes -keyout "$1.key" -out "$1.csr" -subj "/CN=$1" 2>/dev/null
  printf 'subjectAltName=%s\nextendedKeyUsage=%s\n' "${4:-$san}" "$3" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA "$2.pem" -CAkey "$2.key" -CAcreateserial -out "$1.pem" \
    -days "$days" -extfile "$1.ext" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}
ca ca
ca client-ca
leaf coordinator ca serverAuth
leaf worker ca serverAuth "$worker_san"
leaf coordinator-client client-ca clientAuth
openssl rand -hex 24 >token
cp token tokens
chmod 600 ./*.key token tokens
echo "certificates and a token in $dir"
