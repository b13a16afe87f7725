#!/bin/bash
# --web-config: the Prometheus exporter-toolkit's web configuration on --listen, read by the real
# clients — curl over TLS (right, wrong and no credentials, an unknown user, plain HTTP to the
# TLS port, a client without the CA, TLS 1.1), client certificates (RequireAndVerifyClientCert,
# client_allowed_sans), the headers, the rate limit, and Debian's Prometheus 2.42 scraping over
# TLS with basic auth (and failing with a wrong password); a bad file refused at start with
# its line and exit status. Certificates are made here with openssl, the bcrypt hashes with
# libcrypt (python3's crypt). Everything listens on 127.0.0.1 only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleet.sh"

require_cmd openssl
require_cmd curl
require_cmd python3
require_cmd prometheus

C=$T_TMP/certs
mkdir -p "$C" "$T_TMP/data"
# cert NAME CA SAN: a key and a certificate for NAME signed by CA (its .crt/.key) with SAN
cert() {
	openssl req -newkey rsa:2048 -nodes -keyout "$C/$1.key" -out "$C/$1.csr" -subj "/CN=$1" \
		2>/dev/null &&
		printf 'subjectAltName=%s\n' "$3" >"$C/$1.ext" &&
		openssl x509 -req -in "$C/$1.csr" -CA "$C/$2.crt" -CAkey "$C/$2.key" \
			-CAcreateserial -out "$C/$1.crt" -days 2 -extfile "$C/$1.ext" 2>/dev/null
}
ca() { openssl req -x509 -newkey rsa:2048 -nodes -keyout "$C/$1.key" -out "$C/$1.crt" \
	-subj "/CN=$1" -days 2 2>/dev/null; }
check "openssl makes the test CAs and certificates" eval 'ca ca && ca other &&
	cert server ca "DNS:localhost,IP:127.0.0.1" && cert client ca "DNS:prometheus.test" &&
	cert stranger other "DNS:prometheus.test" && cert wrongsan ca "DNS:grafana.test"'
bcrypt() { python3 -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1 << 6)))' "$1"; }
HASH=$(bcrypt 's3cret')
check "libcrypt makes a bcrypt hash ($HASH)" [ "${HASH:0:4}" = '$2b$' ]

# ---- a bad file is refused at start, with its line and the documented status ----
W=$T_TMP/web.yml
bad() { # bad STATUS REGEX DESC: the file in $W is refused
	probe -c 1 -i 10ms --listen "$(free_port)" --web-config "$W" "$T_TMP/data"
	check "$3: exit $1" rc_is "$1"
	check "$3: says where and why" err_has "$2"
	check "$3: no request was made (nothing on stdout)" [ ! -s "$OUT" ]
}
printf 'tls_server_config:\n  cert_file: certs/server.crt\n  cert_fil: x\n' >"$W"
bad 1 "^ioprobe: --web-config $W:3: tls_server_config: unknown key \"cert_fil\"$" "unknown key"
printf 'basic_auth_users:\n  alice: s3cret\n' >"$W"
bad 1 "^ioprobe: --web-config $W:2: basic_auth_users: alice: the password must be a bcrypt hash" \
	"a plain password"
printf 'tls_server_config:\n  cert_file: certs/server.crt\n  key_file: certs/nokey.key\n' >"$W"
bad 2 "^ioprobe: --web-config $W: key_file $C/nokey.key: No such file or directory$" \
	"a missing key file (relative to the file's directory)"
printf 'tls_server_config:\n  cert_file: certs/server.crt\n  key_file: certs/ca.key\n' >"$W"
bad 1 "^ioprobe: --web-config $W: key_file $C/ca.key: the key does not match the certificate$" \
	"a key of another cert"
printf 'tls_server_config:\n  cert_file: certs/server.crt\n key_file: [\n' >"$W"
bad 1 "^ioprobe: --web-config $W:3: not YAML" "not YAML"
printf 'http_server_config:\n  headers:\n    Server: ioprobe\n' >"$W"
bad 1 "^ioprobe: --web-config $W:3: headers: HTTP header \"Server\" can not be configured" \
	"a header the toolkit does not let be set"
probe -c 1 --listen "$(free_port)" --web-config "$T_TMP/none.yml" "$T_TMP/data"
check "a missing --web-config file: exit 2" rc_is 2
check "a missing --web-config file: says so" \
	err_has "^ioprobe: --web-config $T_TMP/none.yml: No such file or directory$"
probe -c 1 --web-config "$W" "$T_TMP/data"
check "--web-config without --listen: exit 1" rc_is 1
check "--web-config without --listen: says so" err_has "^ioprobe: --web-config needs --listen$"

# serve: ioprobe --listen on a free PORT with the web configuration in $W (PID: its timeout)
serve() {
	PORT=$(free_port)
	timeout -k 5 90 "$IOPROBE" -i 100ms -w 60 --listen "127.0.0.1:$PORT" --web-config "$W" \
		"$T_TMP/data" >"$OUT" 2>"$ERR" &
	PID=$!
	FLEET_BG+=("$PID")
}

# ---- TLS and basic auth: curl ----
cat >"$W" <<EOT
tls_server_config:
  cert_file: certs/server.crt
  key_file: certs/server.key
http_server_config:
  headers:
    X-Frame-Options: deny
    Strict-Transport-Security: max-age=31536000
basic_auth_users:
  alice: '$HASH'
EOT
serve
U=https://127.0.0.1:$PORT/metrics
cu() { curl -s --max-time 5 --cacert "$C/ca.crt" "$@"; }
check "the TLS endpoint answers alice" poll_until 10 cu -f -o /dev/null -u alice:s3cret "$U"
H=$T_TMP/head.out
cu -D "$H" -o "$T_TMP/body.out" -u alice:s3cret "$U"
check "right credentials: 200" grep -q '^HTTP/1.1 200 OK' "$H"
check "right credentials: the metrics" grep -q '^ioprobe_probe_info{' "$T_TMP/body.out"
check "the configured headers on the answer" \
	eval "grep -q '^X-Frame-Options: deny' '$H' && grep -q '^Strict-Transport-Security: max-age=31536000' '$H'"
for cred in none alice:wrong bob:s3cret; do
	if [ "$cred" = none ]; then cu -D "$H" -o "$T_TMP/body.out" "$U"
	else cu -D "$H" -o "$T_TMP/body.out" -u "$cred" "$U"; fi
	check "credentials $cred: 401 Unauthorized" grep -q '^HTTP/1.1 401 Unauthorized' "$H"
	check "credentials $cred: WWW-Authenticate: Basic" grep -q '^WWW-Authenticate: Basic' "$H"
	check "credentials $cred: no metrics" [ "$(grep -c ioprobe_ "$T_TMP/body.out")" = 0 ]
done
cu -D "$H" -o "$T_TMP/body.out" "https://127.0.0.1:$PORT/"
check "the landing page needs the credentials too: 401" grep -q '^HTTP/1.1 401' "$H"
curl -s --max-time 5 -D "$H" -o "$T_TMP/body.out" "http://127.0.0.1:$PORT/metrics"
check "plain HTTP to the TLS port: 400" grep -q '^HTTP/1.1 400 Bad Request' "$H"
check "plain HTTP to the TLS port: says why" \
	grep -qx 'Client sent an HTTP request to an HTTPS server.' "$T_TMP/body.out"
curl -s --max-time 5 -o /dev/null -u alice:s3cret "$U"
check "a client without the CA: the handshake fails (curl 60)" [ $? = 60 ]
for _ in 1 2 3 4 5; do curl -s --max-time 5 -o /dev/null "$U"; done
cu -o /dev/null -u alice:s3cret --tls-max 1.1 "$U"
check "TLS 1.1: refused (min_version TLS12 by default)" [ $? != 0 ]
cu -f -o /dev/null -u alice:s3cret "$U"
check "the server still answers after the failed handshakes" [ $? = 0 ]
int_probe "$PID"
wait "$PID"
RC=$?
check "the TLS run ends on INT: exit 0" rc_is 0
check "a failed handshake is said, with the client's address and the reason" \
	err_has "^ioprobe: --listen: TLS handshake with 127\.0\.0\.1:[0-9]+ failed: "
check "failed handshakes: one line in the minute, not one each ($(grep -c handshake "$ERR"))" \
	[ "$(grep -c 'TLS handshake' "$ERR")" = 1 ]

# ---- client certificates: RequireAndVerifyClientCert with client_allowed_sans ----
cat >"$W" <<EOT
tls_server_config:
  cert_file: certs/server.crt
  key_file: certs/server.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: certs/ca.crt
  client_allowed_sans: [prometheus.test]
EOT
serve
U=https://127.0.0.1:$PORT/metrics
check "a client certificate of the CA with an allowed SAN: 200" \
	poll_until 10 cu -f -o /dev/null --cert "$C/client.crt" --key "$C/client.key" "$U"
cu -o /dev/null "$U"
check "no client certificate: refused" [ $? != 0 ]
cu -o /dev/null --cert "$C/stranger.crt" --key "$C/stranger.key" "$U"
check "a client certificate of another CA: refused" [ $? != 0 ]
cu -o /dev/null --cert "$C/wrongsan.crt" --key "$C/wrongsan.key" "$U"
check "a client certificate of the CA without an allowed SAN: refused" [ $? != 0 ]
cu -f -o /dev/null --cert "$C/client.crt" --key "$C/client.key" "$U"
check "the right client still gets in" [ $? = 0 ]
int_probe "$PID"
wait "$PID"

# ---- rate_limit: a bucket of 2, one more a minute ----
printf 'rate_limit:\n  interval: 1m\n  burst: 2\n' >"$W"
serve
check "rate_limit (plain HTTP): the first request" \
	poll_until 10 curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$PORT/metrics"
codes=$(for _ in 1 2; do curl -s -o /dev/null -w '%{http_code} ' --max-time 2 \
	"http://127.0.0.1:$PORT/metrics"; done)
check "rate_limit: the second 200, the third 429 Too Many Requests ($codes)" [ "$codes" = "200 429 " ]
int_probe "$PID"
wait "$PID"

# ---- Prometheus 2.42 scrapes over TLS with basic auth ----
cat >"$W" <<EOT
tls_server_config:
  cert_file: certs/server.crt
  key_file: certs/server.key
basic_auth_users:
  prometheus: '$HASH'
EOT
serve
PPORT=$(free_port)
printf 's3cret' >"$T_TMP/pass"
printf 'nope' >"$T_TMP/wrong"
cat >"$T_TMP/prom.yml" <<EOT
scrape_configs:
  - job_name: ioprobe
    scheme: https
    tls_config:
      ca_file: $C/ca.crt
    basic_auth:
      username: prometheus
      password_file: $T_TMP/pass
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: wrongpass
    scheme: https
    tls_config:
      ca_file: $C/ca.crt
    basic_auth:
      username: prometheus
      password_file: $T_TMP/wrong
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOT
check "prometheus comes up" run_prometheus "$PPORT"
q() { prom_query "$PPORT" "$1" value; }
up_is() { [ "$(q "up{job=\"$1\"}")" = "$2" ]; }
check "prometheus over TLS with basic auth: up 1" poll_until 20 up_is ioprobe 1
check "prometheus: ioprobe_probe_info scraped through TLS" \
	[ "$(q 'ioprobe_probe_info{job="ioprobe"}')" = 1 ]
check "prometheus with a wrong password: up 0" poll_until 10 up_is wrongpass 0
ERRS=$(curl -fs "http://127.0.0.1:$PPORT/api/v1/targets" | python3 -c 'import json, sys
print(" ".join(t["lastError"] for t in json.load(sys.stdin)["data"]["activeTargets"]
               if t["labels"]["job"] == "wrongpass"))')
check "prometheus says the wrong password's scrape got 401 ($ERRS)" \
	grep -q 401 <<<"$ERRS"
int_probe "$PID"
wait "$PID"
RC=$?
check "the scraped run ends on INT: exit 0" rc_is 0

finish
