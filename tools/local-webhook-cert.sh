#!/usr/bin/env bash
# Makes a test certificate authority and a certificate for a webhook receiver on this machine
# (localhost and 127.0.0.1), so the local service can deliver to an https receiver it trusts:
#
#   bash tools/local-webhook-cert.sh [DIR]          # default DIR: .certs (git ignores it)
#   receiver: serve https with DIR/receiver-key.pem and DIR/receiver-cert.pem
#   service:  NODE_EXTRA_CA_CERTS=DIR/ca-cert.pem WEBHOOKS_ALLOW_LOOPBACK=true npm start
#
# The CA's key stays in DIR; trust DIR/ca-cert.pem nowhere but in the service you test with.
set -euo pipefail
dir="${1:-.certs}"
mkdir -p "$dir"
cd "$dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj '/CN=phone-validation local test CA' \
  -keyout ca-key.pem -out ca-cert.pem 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout receiver-key.pem -out receiver.csr 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > receiver.ext
openssl x509 -req -in receiver.csr -CA ca-cert.pem -CAkey ca-key.pem -CAcreateserial -days 30 \
  -extfile receiver.ext -out receiver-cert.pem 2>/dev/null
rm -f receiver.csr receiver.ext ca-cert.srl
chmod 600 ca-key.pem receiver-key.pem
echo "$(pwd)/ca-cert.pem"
