#include "webcfg.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "suffix.h"

struct cfg_ctx {
	yaml_document_t *doc;
	const char *dir;
	struct webcfg *w;
	char *msg;
	size_t msglen;
	int err;
};

/* Headers an answer may be given, with the only values allowed for some (the toolkit's list). */
static const struct {
	const char *name;
	const char *values[3];
} cfg_headers[] = {
	{ "Strict-Transport-Security", { NULL } },
	{ "X-Content-Type-Options", { "nosniff", NULL } },
	{ "X-Frame-Options", { "deny", "sameorigin", NULL } },
	{ "X-XSS-Protection", { NULL } },
	{ "Content-Security-Policy", { NULL } },
};

static const char *const cfg_auth_names[] = {
	[WEBCFG_NO_CLIENT_CERT] = "NoClientCert",
	[WEBCFG_REQUEST_CLIENT_CERT] = "RequestClientCert",
	[WEBCFG_REQUIRE_ANY_CLIENT_CERT] = "RequireAnyClientCert",
	[WEBCFG_VERIFY_CLIENT_CERT_IF_GIVEN] = "VerifyClientCertIfGiven",
	[WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT] = "RequireAndVerifyClientCert",
};

const char *webcfg_client_auth_name(enum webcfg_client_auth a)
{
	return cfg_auth_names[a];
}

static int cfg_line(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 1;
}

/* Fail at node n's line with a message (the first failure is kept). Returns -EINVAL. */
__attribute__((format(printf, 3, 4)))
static int cfg_fail(struct cfg_ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (c->err)
		return c->err;
	len = snprintf(c->msg, c->msglen, "%d: ", cfg_line(n));
	va_start(ap, fmt);
	if (len >= 0 && (size_t)len < c->msglen)
		vsnprintf(c->msg + len, c->msglen - (size_t)len, fmt, ap);
	va_end(ap);
	c->err = -EINVAL;
	return c->err;
}

static char *cfg_dup(struct cfg_ctx *c, const char *s)
{
	char *d = strdup(s);

	if (!d && !c->err) {
		snprintf(c->msg, c->msglen, "out of memory");
		c->err = -ENOMEM;
	}
	return d;
}

/* A plain null scalar (empty, ~, null): an absent value, as Go's YAML reads it. */
static bool cfg_null(const yaml_node_t *n)
{
	const char *v;

	if (!n || n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	v = (const char *)n->data.scalar.value;
	return !*v || !strcmp(v, "~") || !strcasecmp(v, "null");
}

/* The text of scalar n (key names what it is, for the message), NULL on failure. */
static const char *cfg_scalar(struct cfg_ctx *c, const yaml_node_t *n, const char *key)
{
	if (!n || n->type != YAML_SCALAR_NODE) {
		cfg_fail(c, n, "%s: a string is expected", key);
		return NULL;
	}
	return cfg_null(n) ? "" : (const char *)n->data.scalar.value;
}

static int cfg_string(struct cfg_ctx *c, const yaml_node_t *n, const char *key, char **out)
{
	const char *v = cfg_scalar(c, n, key);

	if (!v)
		return c->err;
	free(*out);
	*out = *v ? cfg_dup(c, v) : NULL;
	return c->err;
}

/* A file name: relative ones are taken from the configuration file's directory. */
static int cfg_path(struct cfg_ctx *c, const yaml_node_t *n, const char *key, char **out)
{
	char *p;

	if (cfg_string(c, n, key, out) || !*out || **out == '/' || !c->dir || !*c->dir)
		return c->err;
	if (asprintf(&p, "%s/%s", c->dir, *out) < 0) {
		snprintf(c->msg, c->msglen, "out of memory");
		return c->err = -ENOMEM;
	}
	free(*out);
	*out = p;
	return 0;
}

static int cfg_bool(struct cfg_ctx *c, const yaml_node_t *n, const char *key, bool *out)
{
	static const char *const yes[] = { "true", "yes", "on", "y" }, *const no[] = {
		"false", "no", "off", "n" };
	const char *v = n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;

	for (size_t i = 0; v && i < 4; i++) {
		if (!strcasecmp(v, yes[i]) || !strcasecmp(v, no[i])) {
			*out = !strcasecmp(v, yes[i]);
			return 0;
		}
	}
	return cfg_fail(c, n, "%s: true or false is expected", key);
}

static int cfg_list(struct cfg_ctx *c, const yaml_node_t *n, const char *key, struct webcfg_list *l)
{
	yaml_node_item_t *it;

	l->line = cfg_line(n);
	if (cfg_null(n))
		return 0;
	if (n->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, n, "%s: a list is expected", key);
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		const yaml_node_t *e = yaml_document_get_node(c->doc, *it);
		const char *v = cfg_scalar(c, e, key);
		char **grown;

		if (!v)
			return c->err;
		grown = realloc(l->item, (l->n + 1) * sizeof(*l->item));
		if (!grown || !(grown[l->n] = cfg_dup(c, v))) {
			l->item = grown ? grown : l->item;
			snprintf(c->msg, c->msglen, "out of memory");
			return c->err = -ENOMEM;
		}
		l->item = grown;
		l->n++;
	}
	return 0;
}

/* key's value n as a mapping of strings to strings, appended to *pairs. */
static int cfg_pairs(struct cfg_ctx *c, const yaml_node_t *n, const char *key,
		     struct webcfg_pair **pairs, size_t *count)
{
	yaml_node_pair_t *p;

	if (cfg_null(n))
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return cfg_fail(c, n, "%s: a mapping is expected", key);
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		const yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *ks = cfg_scalar(c, k, key), *vs = ks ? cfg_scalar(c, v, ks) : NULL;
		struct webcfg_pair *grown;

		if (!vs)
			return c->err;
		for (size_t i = 0; i < *count; i++)
			if (!strcmp((*pairs)[i].name, ks))
				return cfg_fail(c, k, "%s: \"%s\" is given twice", key, ks);
		grown = realloc(*pairs, (*count + 1) * sizeof(**pairs));
		if (!grown) {
			snprintf(c->msg, c->msglen, "out of memory");
			return c->err = -ENOMEM;
		}
		*pairs = grown;
		grown[*count] = (struct webcfg_pair){ cfg_dup(c, ks), cfg_dup(c, vs), cfg_line(k) };
		(*count)++;
		if (c->err)
			return c->err;
	}
	return 0;
}

typedef int (*cfg_key_fn)(struct cfg_ctx *c, const char *key, const yaml_node_t *v);

/*
 * Walk mapping n (section names it): every key once, each handed to fn, which returns
 * 1 for a key it does not know.
 */
static int cfg_mapping(struct cfg_ctx *c, const yaml_node_t *n, const char *section, cfg_key_fn fn)
{
	yaml_node_pair_t *p, *q;

	if (cfg_null(n))
		return 0;
	if (n->type != YAML_MAPPING_NODE)
		return cfg_fail(c, n, "%s: a mapping is expected", section);
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
		const yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		const char *ks = cfg_scalar(c, k, section);
		int r;

		if (!ks)
			return c->err;
		for (q = n->data.mapping.pairs.start; q < p; q++)
			if (!strcmp((const char *)yaml_document_get_node(c->doc, q->key)->data.scalar.value,
				    ks))
				return cfg_fail(c, k, "%s: \"%s\" is given twice", section, ks);
		r = fn(c, ks, yaml_document_get_node(c->doc, p->value));
		if (r > 0)
			return cfg_fail(c, k, "%s: unknown key \"%s\"", section, ks);
		if (r < 0)
			return r;
	}
	return c->err;
}

static int cfg_version(struct cfg_ctx *c, const yaml_node_t *n, const char *key,
		       enum webcfg_tls_version *out)
{
	const char *v = cfg_scalar(c, n, key);

	if (!v)
		return c->err;
	if (strlen(v) == 5 && !strncmp(v, "TLS1", 4) && v[4] >= '0' && v[4] <= '3') {
		*out = (enum webcfg_tls_version)(WEBCFG_TLS10 + (v[4] - '0'));
		return 0;
	}
	return cfg_fail(c, n, "%s: \"%s\" is not TLS10, TLS11, TLS12 or TLS13", key, v);
}

static int cfg_client_auth(struct cfg_ctx *c, const yaml_node_t *n)
{
	const char *v = cfg_scalar(c, n, "client_auth_type");

	if (!v)
		return c->err;
	c->w->tls |= *v != 0; /* the toolkit: any TLS key turns TLS on */
	if (!*v) {
		c->w->client_auth = WEBCFG_NO_CLIENT_CERT;
		return 0;
	}
	if (!strcmp(v, "RequireClientCert")) { /* the toolkit's older name */
		c->w->client_auth = WEBCFG_REQUIRE_ANY_CLIENT_CERT;
		return 0;
	}
	for (size_t i = 0; i < sizeof(cfg_auth_names) / sizeof(*cfg_auth_names); i++) {
		if (!strcmp(v, cfg_auth_names[i])) {
			c->w->client_auth = (enum webcfg_client_auth)i;
			return 0;
		}
	}
	return cfg_fail(c, n, "client_auth_type: \"%s\" is not NoClientCert, RequestClientCert, "
			"RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert",
			v);
}

static int cfg_tls_key(struct cfg_ctx *c, const char *key, const yaml_node_t *v)
{
	struct webcfg *w = c->w;

	if (!strcmp(key, "cert_file"))
		return cfg_path(c, v, key, &w->cert_file);
	if (!strcmp(key, "key_file"))
		return cfg_path(c, v, key, &w->key_file);
	if (!strcmp(key, "client_ca_file"))
		return cfg_path(c, v, key, &w->client_ca_file);
	if (!strcmp(key, "cert"))
		return cfg_string(c, v, key, &w->cert);
	if (!strcmp(key, "key"))
		return cfg_string(c, v, key, &w->key);
	if (!strcmp(key, "client_ca"))
		return cfg_string(c, v, key, &w->client_ca);
	if (!strcmp(key, "client_auth_type"))
		return cfg_client_auth(c, v);
	if (!strcmp(key, "client_allowed_sans"))
		return cfg_list(c, v, key, &w->client_allowed_sans);
	if (!strcmp(key, "min_version"))
		return cfg_version(c, v, key, &w->min_version);
	if (!strcmp(key, "max_version"))
		return cfg_version(c, v, key, &w->max_version);
	if (!strcmp(key, "cipher_suites"))
		return cfg_list(c, v, key, &w->cipher_suites);
	if (!strcmp(key, "curve_preferences"))
		return cfg_list(c, v, key, &w->curves);
	if (!strcmp(key, "prefer_server_cipher_suites"))
		return cfg_bool(c, v, key, &w->prefer_server_cipher_suites);
	return 1;
}

static int cfg_headers_check(struct cfg_ctx *c)
{
	for (size_t i = 0; i < c->w->n_headers; i++) {
		const struct webcfg_pair *h = &c->w->headers[i];
		size_t k = 0;

		while (k < sizeof(cfg_headers) / sizeof(*cfg_headers) && strcmp(cfg_headers[k].name,
										  h->name))
			k++;
		if (k == sizeof(cfg_headers) / sizeof(*cfg_headers)) {
			snprintf(c->msg, c->msglen, "%d: headers: HTTP header \"%s\" can not be "
				 "configured (Strict-Transport-Security, X-Content-Type-Options, "
				 "X-Frame-Options, X-XSS-Protection, Content-Security-Policy)",
				 h->line, h->name);
			return c->err = -EINVAL;
		}
		for (const char *p = h->value; *p; p++)
			if ((unsigned char)*p < ' ' && *p != '\t') {
				snprintf(c->msg, c->msglen, "%d: headers: %s: a control character "
					 "in the value", h->line, h->name);
				return c->err = -EINVAL;
			}
		for (size_t v = 0; cfg_headers[k].values[0]; v++) {
			if (!cfg_headers[k].values[v]) {
				snprintf(c->msg, c->msglen, "%d: headers: %s: \"%s\" is not %s%s%s",
					 h->line, h->name, h->value, cfg_headers[k].values[0],
					 cfg_headers[k].values[1] ? " or " : "",
					 cfg_headers[k].values[1] ? cfg_headers[k].values[1] : "");
				return c->err = -EINVAL;
			}
			if (!strcmp(cfg_headers[k].values[v], h->value))
				break;
		}
	}
	return 0;
}

static int cfg_http_key(struct cfg_ctx *c, const char *key, const yaml_node_t *v)
{
	if (!strcmp(key, "http2"))
		return cfg_bool(c, v, key, &c->w->http2);
	if (!strcmp(key, "headers"))
		return cfg_pairs(c, v, key, &c->w->headers, &c->w->n_headers) ? c->err :
										 cfg_headers_check(c);
	return 1;
}

static int cfg_rate_key(struct cfg_ctx *c, const char *key, const yaml_node_t *v)
{
	const char *s = cfg_scalar(c, v, key);
	char why[128];

	if (!s)
		return c->err;
	if (!strcmp(key, "burst")) {
		if (suffix_parse_number(s, UINT32_MAX, &c->w->rate_burst, why, sizeof(why)) ||
		    strspn(s, "0123456789") != strlen(s))
			return cfg_fail(c, v, "rate_limit: burst: \"%s\" is not a whole number", s);
		return 0;
	}
	if (!strcmp(key, "interval")) {
		if (!strcmp(s, "0"))
			c->w->rate_interval = 0;
		else if (!*s || suffix_parse_time(s, 86400000000000ull, &c->w->rate_interval, why,
						  sizeof(why)) || s[strlen(s) - 1] < 'a')
			return cfg_fail(c, v, "rate_limit: interval: \"%s\" is not a duration such "
					"as 100ms or 1s", s);
		return 0;
	}
	return 1;
}

static int cfg_top_key(struct cfg_ctx *c, const char *key, const yaml_node_t *v)
{
	if (!strcmp(key, "tls_server_config")) {
		c->w->cert_line = cfg_line(v);
		return cfg_mapping(c, v, key, cfg_tls_key);
	}
	if (!strcmp(key, "http_server_config"))
		return cfg_mapping(c, v, key, cfg_http_key);
	if (!strcmp(key, "rate_limit")) {
		c->w->rate_line = cfg_line(v);
		return cfg_mapping(c, v, key, cfg_rate_key);
	}
	if (!strcmp(key, "basic_auth_users")) {
		if (cfg_pairs(c, v, key, &c->w->users, &c->w->n_users))
			return c->err;
		for (size_t i = 0; i < c->w->n_users; i++)
			if (!webcfg_bcrypt_ok(c->w->users[i].value)) {
				snprintf(c->msg, c->msglen, "%d: basic_auth_users: %s: the password "
					 "must be a bcrypt hash ($2y$..., as htpasswd -nBC 10 makes "
					 "it)", c->w->users[i].line, c->w->users[i].name);
				return c->err = -EINVAL;
			}
		return 0;
	}
	return 1;
}

/* The toolkit's rules between the keys, once the file is read. */
static int cfg_validate(struct cfg_ctx *c)
{
	struct webcfg *w = c->w;
	int line = w->cert_line;

	if (w->rate_interval && !w->rate_burst) {
		snprintf(c->msg, c->msglen, "%d: rate_limit: burst must be at least 1 when an "
			 "interval is set (0 would refuse every request)", w->rate_line);
		return c->err = -EINVAL;
	}
	w->tls = w->tls || w->cert_file || w->cert || w->key_file || w->key || w->client_ca_file ||
		 w->client_ca;
	if (!w->tls && !w->client_allowed_sans.n)
		return 0; /* the toolkit ignores the rest without TLS; SANs would seem to restrict */
	if (!w->tls)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: client_allowed_sans needs "
			 "client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert",
			 w->client_allowed_sans.line);
	else if (!w->cert_file && !w->cert)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: missing one of cert or cert_file",
			 line);
	else if (!w->key_file && !w->key)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: missing one of key or key_file",
			 line);
	else if ((w->client_ca_file || w->client_ca) && w->client_auth == WEBCFG_NO_CLIENT_CERT)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: a client CA is given without a "
			 "client_auth_type", line);
	else if (w->client_allowed_sans.n && w->client_auth != WEBCFG_REQUIRE_ANY_CLIENT_CERT &&
		 w->client_auth != WEBCFG_REQUIRE_AND_VERIFY_CLIENT_CERT)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: client_allowed_sans needs "
			 "client_auth_type RequireAnyClientCert or RequireAndVerifyClientCert",
			 w->client_allowed_sans.line);
	else if (w->min_version > w->max_version)
		snprintf(c->msg, c->msglen, "%d: tls_server_config: min_version is above "
			 "max_version", line);
	else
		return 0;
	return c->err = -EINVAL;
}

/* libyaml's own complaint (a syntax error) with its line. */
static int cfg_syntax(struct cfg_ctx *c, const yaml_parser_t *p)
{
	const yaml_mark_t *m = p->problem ? &p->problem_mark : &p->context_mark;

	snprintf(c->msg, c->msglen, "%zu: not YAML: %s%s%s", m->line + 1,
		 p->problem ? p->problem : "cannot be read", p->context ? " " : "",
		 p->context ? p->context : "");
	return c->err = p->error == YAML_MEMORY_ERROR ? -ENOMEM : -EINVAL;
}

int webcfg_parse(const char *text, size_t len, const char *dir, struct webcfg *w, char *msg,
		 size_t msglen)
{
	yaml_parser_t parser;
	yaml_document_t doc;
	struct cfg_ctx c = { &doc, dir, w, msg, msglen, 0 };
	yaml_node_t *root;

	memset(w, 0, sizeof(*w));
	w->min_version = WEBCFG_TLS12;
	w->max_version = WEBCFG_TLS13;
	w->prefer_server_cipher_suites = true;
	w->http2 = true;
	if (!yaml_parser_initialize(&parser)) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		cfg_syntax(&c, &parser);
		yaml_parser_delete(&parser);
		return c.err;
	}
	root = yaml_document_get_root_node(&doc);
	if (root && !cfg_null(root))
		cfg_mapping(&c, root, "the file", cfg_top_key);
	if (!c.err)
		cfg_validate(&c);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return c.err;
}

static void cfg_list_free(struct webcfg_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->item[i]);
	free(l->item);
}

static void cfg_pairs_free(struct webcfg_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].value);
	}
	free(p);
}

void webcfg_free(struct webcfg *w)
{
	free(w->cert_file);
	free(w->key_file);
	free(w->cert);
	free(w->key);
	free(w->client_ca_file);
	free(w->client_ca);
	cfg_list_free(&w->client_allowed_sans);
	cfg_list_free(&w->cipher_suites);
	cfg_list_free(&w->curves);
	cfg_pairs_free(w->headers, w->n_headers);
	cfg_pairs_free(w->users, w->n_users);
	memset(w, 0, sizeof(*w));
}

bool webcfg_bcrypt_ok(const char *h)
{
	static const char b64[] = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	int cost;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' || !strchr("aby", h[2]) || h[3] != '$' ||
	    h[4] < '0' || h[4] > '3' || h[5] < '0' || h[5] > '9' || h[6] != '$')
		return false;
	cost = (h[4] - '0') * 10 + (h[5] - '0');
	return cost >= 4 && cost <= 31 && strspn(h + 7, b64) == 53;
}

const struct webcfg_pair *webcfg_user(const struct webcfg *w, const char *name, size_t len)
{
	for (size_t i = 0; i < w->n_users; i++)
		if (strlen(w->users[i].name) == len && !memcmp(w->users[i].name, name, len))
			return &w->users[i];
	return NULL;
}
