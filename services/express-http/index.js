'use strict';
// The HTTP layer of the Node.js variants (express, express-sequelize): the plain API
// (contract-tests/src/main/resources/openapi.yaml) on Express 5, one Node.js process, one event loop. Routing, body
// reading and its limit, validation, problem answers, hostile-input handling, metrics and health live here, once;
// each variant passes its data access in (`start(name, data)`; the interface is described at `start` below) and
// keeps only its database code in its own server.js. Installed into each variant's node_modules as a copy
// (`npm ci --install-links`): a variant's folder is its artifact and is copied whole for a run.

const http = require('node:http');
const express = require('express');
const { LRUCache } = require('lru-cache');
const prom = require('prom-client');

const config = {
  port: Number(process.env.PORT ?? 8084),
  host: process.env.BIND_ADDRESS ?? '127.0.0.1',
  dbUrl: process.env.DB_URL ?? 'jdbc:postgresql://127.0.0.1:54329/bench',
  dbUser: process.env.DB_USER ?? 'postgres',
  dbPassword: process.env.DB_PASSWORD ?? 'postgres',
  poolSize: Number(process.env.DB_POOL_SIZE ?? 16),
  maxBodyBytes: Number(process.env.MAX_BODY_BYTES ?? 65536),
};

// ---- Values both data accesses use ------------------------------------------------------------------------------

/** DB_URL is a JDBC URL (every variant reads the same variable): jdbc:postgresql://host:port/db?params. */
function connectionOf(jdbcUrl) {
  const m = /^jdbc:postgresql:\/\/([^/:?]+)(?::(\d+))?\/([^?]+)/.exec(jdbcUrl);
  if (!m) throw new Error(`DB_URL is not a jdbc:postgresql://host[:port]/database URL: ${jdbcUrl}`);
  return { host: m[1], port: Number(m[2] ?? 5432), database: decodeURIComponent(m[3]) };
}

/** "2026-06-18 21:21:46.5682+00" (session time zone UTC) → "2026-06-18T21:21:46.568200Z", as Java's Instant prints. */
function instantText(text) {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/.exec(text);
  if (!m) return new Date(text).toISOString();
  return `${m[1]}T${m[2]}${fraction(Number((m[3] ?? '').padEnd(6, '0')))}Z`;
}

/** Instant#toString's fraction: none, 3 or 6 digits. */
function fraction(micros) {
  if (micros === 0) return '';
  if (micros % 1000 === 0) return `.${String(micros / 1000).padStart(3, '0')}`;
  return `.${String(micros).padStart(6, '0')}`;
}

/** Now, truncated to microseconds, as the text every variant stores (Instant.now() in the JVM variants). */
function now() {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const seconds = Math.floor(micros / 1e6);
  return new Date(seconds * 1000).toISOString().replace(/\.\d{3}Z$/, `${fraction(micros % 1e6)}Z`);
}

// ---- Errors -----------------------------------------------------------------------------------------------------

const TITLES = {
  400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable', 409: 'Conflict',
  411: 'Length Required', 413: 'Content Too Large', 414: 'URI Too Long', 415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

class Problem extends Error {
  constructor(status, detail, errors) {
    super(detail);
    this.status = status;
    this.errors = errors;
  }
}

const invalid = (field, message) => new Problem(400, `Invalid request content: ${field} ${message}`, [{ field, message }]);

function problemBody(status, detail, instance, errors) {
  const body = { type: 'about:blank', title: TITLES[status] ?? 'Error', status };
  if (detail) body.detail = detail;
  if (instance) body.instance = instance;
  if (errors) body.errors = errors;
  return JSON.stringify(body);
}

// ---- Input ------------------------------------------------------------------------------------------------------

const INT64_MAX = 9223372036854775807n;

/** A path or query integer as Long.parseLong reads it (sign, digits), within int64: the decimal text, else null. */
function int64Text(text) {
  if (typeof text !== 'string' || !/^[+-]?\d+$/.test(text)) return null;
  const value = BigInt(text);
  if (value > INT64_MAX || value < -INT64_MAX - 1n) return null;
  return value.toString();
}

function pathId(req) {
  const id = int64Text(req.params.id);
  if (id === null) throw new Problem(400, `id must be an integer: ${req.params.id}`, [{ field: 'id', message: 'must be an integer' }]);
  return id;
}

function queryInt(req, name, fallback, min, max) {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  // Given more than once is no integer either (openapi.yaml: not an array): the same rule in every variant.
  const value = int64Text(typeof raw === 'string' ? raw : '');
  if (value === null || BigInt(value) < BigInt(min) || BigInt(value) > BigInt(max)) {
    throw new Problem(400, `${name} must be an integer in ${min}..${max}`, [{ field: name, message: `must be an integer in ${min}..${max}` }]);
  }
  return Number(value);
}

function paging(req) {
  const p = { page: queryInt(req, 'page', 0, 0, 2147483647), size: queryInt(req, 'size', 20, 1, 100) };
  p.offset = BigInt(p.page) * BigInt(p.size);
  return p;
}

// Blank: nothing but White_Space, controls and U+FEFF (the contract's pattern); lengths in code points.
const NOT_BLANK = /[^\s\u0000-\u001f\u007f-\u009f\ufeff]/u;

function text(body, field, max, { required = true } = {}) {
  const value = body[field];
  if (value === undefined || value === null) {
    if (!required) return null;
    throw invalid(field, 'must not be null');
  }
  if (typeof value !== 'string') throw invalid(field, 'must be a string');
  if (value.includes('\u0000')) throw invalid(field, 'must not contain U+0000');
  if (required && !NOT_BLANK.test(value)) throw invalid(field, 'must not be blank');
  if ([...value].length > max) throw invalid(field, `size must be at most ${max}`);
  return value;
}

/** A JSON Schema integer: any number with a whole value (3, 3.0, 3e0). */
function integer(body, field, min, max) {
  const value = body[field];
  if (value === undefined || value === null) throw invalid(field, 'must not be null');
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value)) throw invalid(field, 'must be an integer');
  if (value < min || value > max) throw invalid(field, `must be between ${min} and ${max}`);
  return value;
}

function price(body) {
  const value = body.price;
  if (value === undefined || value === null) throw invalid('price', 'must not be null');
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid('price', 'must be a number');
  if (value < 0) throw invalid('price', 'must be at least 0');
  if (value > 99999999.99) throw invalid('price', 'must be at most 99999999.99');
  // numeric(10,2): at most two decimals. The double nearest to a two-decimal text is within a few ulps of whole
  // cents; anything farther had more decimals.
  const cents = value * 100;
  if (Math.abs(cents - Math.round(cents)) > Math.max(1e-9, Math.abs(cents) * 8 * Number.EPSILON)) {
    throw invalid('price', 'must have at most 2 decimals');
  }
  return Math.round(cents) / 100;
}

/** Every field checked, every invalid one listed in one 400 (as Bean Validation lists them). */
function validated(fields) {
  const errors = [];
  const out = {};
  for (const [name, check] of Object.entries(fields)) {
    try {
      out[name] = check();
    } catch (error) {
      if (!(error instanceof Problem) || !error.errors) throw error;
      errors.push(...error.errors);
    }
  }
  if (errors.length) {
    throw new Problem(400, `Invalid request content: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
  }
  return out;
}

function categoryRequest(body) {
  return validated({ code: () => text(body, 'code', 64), name: () => text(body, 'name', 200) });
}

function itemRequest(body) {
  return validated({
    sku: () => text(body, 'sku', 64), name: () => text(body, 'name', 200), price: () => price(body),
    stock: () => integer(body, 'stock', 0, 2147483647),
    description: () => text(body, 'description', 8192, { required: false }),
    categoryId: () => integer(body, 'categoryId', -Number.MAX_VALUE, Number.MAX_VALUE),
  });
}

/**
 * A request body nobody will use (an oversized one, or one sent with a method the path refuses) is read to its end
 * up to this many bytes, as Tomcat swallows it: the connection then stays usable. Beyond, the response closes it.
 */
const SWALLOW_LIMIT = 2 * 1024 * 1024;

async function swallow(req) {
  if (req.destroyed || req.readableEnded) return;
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += chunk.length;
    if (size > SWALLOW_LIMIT) return;
  }
}

/** The JSON body of a write: application/json only, at most MAX_BODY_BYTES, an object. */
async function jsonBody(req) {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const declared = req.headers['content-length'];
  const tooLarge = new Problem(413, `request body above ${config.maxBodyBytes} bytes`);
  // Refused before reading when even swallowing it would be too much: the response then closes the connection.
  if (declared !== undefined && Number(declared) > SWALLOW_LIMIT) throw tooLarge;
  const chunks = [];
  let size = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    size += chunk.length;
    // Past the swallow limit the rest stays unread: the 413 then closes the connection (the loop is left without
    // destroying the request: the response must still go out).
    if (size > SWALLOW_LIMIT) break;
    if (size <= config.maxBodyBytes) chunks.push(chunk);
  }
  if (size > config.maxBodyBytes) throw tooLarge;
  if (type !== 'application/json') {
    throw new Problem(415, `Content-Type '${req.headers['content-type'] ?? ''}' is not supported: application/json`);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  let body;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new Problem(400, raw.trim() === '' ? 'request body is missing' : 'request body is not valid JSON');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Problem(400, 'request body must be a JSON object');
  return body;
}

/**
 * PostgreSQL's refusals of a write: a unique key (409), an unknown category (400), a value it cannot store (400).
 * `cause` is the driver's error with PostgreSQL's SQLSTATE and constraint name (node-postgres's own; Sequelize
 * wraps it in `error.parent`); anything else is returned as it came.
 */
function translate(error, itemCategoryId, cause = error) {
  if (cause.code === '23505') return new Problem(409, cause.constraint === 'item_sku_key' ? 'sku already exists' : 'code already exists');
  if (cause.code === '23503' && cause.constraint === 'item_category_fk') {
    if (itemCategoryId === undefined) return new Problem(409, 'the category still has items');
    return invalid('categoryId', `category ${itemCategoryId} does not exist`);
  }
  if (cause.code && /^(22|23)/.test(cause.code)) return new Problem(400, 'a value PostgreSQL cannot store');
  return error;
}

/** A categoryId outside int64 cannot exist (the same 400 as an unknown one, without asking PostgreSQL to fail). */
function categoryParam(id) {
  if (!Number.isSafeInteger(id)) {
    if (Math.abs(id) > 9223372036854775807) throw invalid('categoryId', `category ${id} does not exist`);
    return BigInt(id).toString();
  }
  return id;
}

// ---- Closing with a body unread ---------------------------------------------------------------------------------

/** How long a connection closed after an answer may stay open while the rest of its body is read and dropped. */
const LINGER_MILLIS = 5000;
/**
 * How much of that rest is read before the socket is destroyed anyway. Java's HttpClient goes on sending its body
 * after the answer has come: with 2 MiB here (SWALLOW_LIMIT) it still lost 3 answers of 40 16 MB POSTs, with 64 MiB
 * none of 40 (16 MB) nor of 10 (128 MB), on loopback.
 */
const LINGER_BYTES = 64 * 1024 * 1024;

/**
 * The answer to this request closes the connection while (part of) its body is still unread: an oversized body
 * announced by its Content-Length (refused before reading), or one beyond SWALLOW_LIMIT. Closing the socket with
 * unread bytes in the kernel's receive buffer makes the kernel send a reset, which can reach the client before it
 * has read the answer: the client then sees no answer at all ("header parser received no bytes"). So, as servers
 * have done since Apache's lingering close: the answer goes out first, then this side is half-closed (FIN after
 * the answer) and what the client still sends is read and dropped, until the body ends or the client closes,
 * bounded by LINGER_MILLIS and LINGER_BYTES (a client cannot hold the connection or make it read for long);
 * only then is the socket destroyed. Node's server would destroy it as soon as the answer is written
 * (`socket.destroySoon()` after a `Connection: close` response): that call is replaced for this socket alone.
 */
function lingerOnClose(req, res) {
  const socket = req.socket;
  if (!socket || socket.destroyed) return;
  let answered = false;
  let bodyDone = false;
  let dropped = 0;
  let timer = null;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  req.on('data', (chunk) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.on('error', () => { /* the client is gone: the socket closes with it */ });
  req.on('end', () => {
    bodyDone = true;
    if (answered) close();
  });
  socket.once('close', () => clearTimeout(timer));
  socket.destroySoon = function lingeringClose() {
    if (this.writable) this.end(); // the answer, then FIN; reading goes on (HTTP sockets are allowHalfOpen)
    answered = true;
    timer = setTimeout(close, LINGER_MILLIS);
    if (bodyDone) {
      // Nothing more will be read: destroy once the answer and the FIN are handed to the kernel.
      if (this.writableFinished) close();
      else this.once('finish', close);
    }
  };
  req.resume();
}

// ---- The no-database workload ---------------------------------------------------------------------------------------

/** The keys GET /cache/{key} accepts (openapi.yaml, parameter Key). */
const CACHE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The cache of GET /cache/{key}, as the JVM variants build it with Caffeine: lru-cache (Node's usual bounded
 * in-process cache), at most 10,000 entries, no expiry, key0 … key999 held from the start, a missing value computed
 * as "value-" + key and held.
 */
function valueCache() {
  const cache = new LRUCache({ max: 10000 });
  for (let i = 0; i < 1000; i++) cache.set(`key${i}`, `value-key${i}`);
  return {
    get(key) {
      let value = cache.get(key);
      if (value === undefined) {
        value = `value-${key}`;
        cache.set(key, value);
      }
      return value;
    },
  };
}

// ---- The service ------------------------------------------------------------------------------------------------

/**
 * Starts the service: waits for the database, then listens on PORT. `name` names the process in its log lines;
 * `data` is the variant's data access, every method a promise:
 *
 * - `ping()`: one round trip to the database (at start, until it answers); `close()`: the pool, at shutdown;
 * - `pool`: `{help, stats()}` for `db_pool_connections` (`stats()` → `{total, idle, waiting}`);
 * - `unavailable(error)`: true when an unexpected error means the database is gone (503 instead of 500);
 * - `categories`: `page(p)` → `{content, total}`, `byId(id)` → a category or null, `create(c)`, `update(id, c)` →
 *   the category or null, `remove(id)` → whether a row was deleted;
 * - `items`: `page(p, categoryId|null)` → `{content, total}`, `pageInCategory(id, p)` → `{content, total}` or null
 *   when the category does not exist, `byId(id)`, `create(i, categoryId)`, `update(id, i, categoryId)` → the item or
 *   null, `remove(id)` → whether a row was deleted.
 *
 * Ids are decimal text within int64 (`p`: `{page, size, offset}`, offset a BigInt); answers are the API's JSON
 * objects. Writes reject with what `translate` makes of PostgreSQL's refusals.
 */
function start(name, data) {
  const registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  // The only histogram of every variant is http_server_requests_seconds (the same scrape cost everywhere).
  registry.removeSingleMetric('nodejs_gc_duration_seconds');
  const requests = new prom.Histogram({
    name: 'http_server_requests_seconds',
    help: 'Duration of HTTP server request handling',
    labelNames: ['method', 'uri', 'status', 'outcome', 'exception', 'error'],
    // Micrometer's default range for a timer histogram: 1 ms to 30 s.
    buckets: [0.001, 0.002, 0.003, 0.005, 0.008, 0.013, 0.021, 0.034, 0.055, 0.089, 0.144, 0.233, 0.377, 0.61,
      0.987, 1.597, 2.584, 4.181, 6.765, 10.946, 17.711, 30],
    registers: [registry],
  });
  new prom.Gauge({
    name: 'db_pool_connections', help: data.pool.help, labelNames: ['state'], registers: [registry],
    collect() {
      const stats = data.pool.stats();
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });

  const outcome = (status) => (status < 200 ? 'INFORMATIONAL' : status < 300 ? 'SUCCESS' : status < 400 ? 'REDIRECTION'
    : status < 500 ? 'CLIENT_ERROR' : 'SERVER_ERROR');

  let databaseUp = false;

  // ---- HTTP -----------------------------------------------------------------------------------------------------

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  app.set('query parser', 'simple');

  app.use((req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const uri = req.route ? req.baseUrl + req.route.path : res.statusCode === 404 ? 'NOT_FOUND' : 'UNKNOWN';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      requests.observe({ method: req.method, uri: uri.replace(/:(\w+)/g, '{$1}'), status: String(res.statusCode),
        outcome: outcome(res.statusCode), exception: 'none', error: 'none' }, seconds);
    });
    next();
  });

  /**
   * A body announced above MAX_BODY_BYTES is refused from its Content-Length, whatever the method, before it is
   * read: waiting for (or swallowing) bytes that will be thrown away before answering held the connection of a
   * client that announced 1 GB and sent nothing, and a GET answered 200 before its body was read (issue 22). The
   * 413 closes the connection; what the client sends after it is dropped for a bounded time (lingerOnClose).
   */
  const announcedTooLarge = (req) => Number(req.headers['content-length']) > config.maxBodyBytes;
  app.use((req, res, next) => next(announcedTooLarge(req)
    ? new Problem(413, `request body above ${config.maxBodyBytes} bytes`) : undefined));

  /** Success bodies are JSON: 406 when Accept excludes it. */
  function acceptsJson(req) {
    const accept = req.headers.accept;
    if (!accept) return true;
    return accept.split(',').some((part) => {
      const [range, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      if (q && Number(q.slice(2)) === 0) return false;
      return ['*/*', 'application/*', 'application/json'].includes(range.trim());
    });
  }

  function send(res, req, status, body, headers = {}) {
    if (!acceptsJson(req)) throw new Problem(406, 'only application/json is produced');
    res.status(status).set(headers).type('application/json').send(JSON.stringify(body));
  }

  /** A write checks Accept before it changes anything (a 406 after an INSERT would leave a row behind). */
  function acceptable(req) {
    if (!acceptsJson(req)) throw new Problem(406, 'only application/json is produced');
  }

  /** Routes: each path with its methods; anything else on the path is a 405 with Allow. */
  const route = (path, handlers) => {
    const allow = Object.keys(handlers).map((m) => m.toUpperCase());
    if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD');
    const r = app.route(path);
    for (const [method, handler] of Object.entries(handlers)) r[method](async (req, res) => handler(req, res));
    r.all((req, res) => {
      if (req.method === 'OPTIONS') {
        res.status(200).set('Allow', [...allow, 'OPTIONS'].join(', ')).end();
        return;
      }
      res.set('Allow', allow.join(', '));
      throw new Problem(405, `Method '${req.method}' is not supported.`);
    });
  };

  const page = (content, p, total) => ({
    content, page: p.page, size: p.size, totalElements: total, totalPages: Math.ceil(total / p.size),
  });

  route('/categories', {
    get: async (req, res) => {
      const p = paging(req);
      const { content, total } = await data.categories.page(p);
      send(res, req, 200, page(content, p, total));
    },
    post: async (req, res) => {
      const c = categoryRequest(await jsonBody(req));
      acceptable(req);
      const saved = await data.categories.create(c);
      send(res, req, 201, saved, { Location: `/categories/${saved.id}` });
    },
  });

  route('/categories/:id', {
    get: async (req, res) => {
      const found = await data.categories.byId(pathId(req));
      if (!found) throw new Problem(404, `category ${req.params.id} does not exist`);
      send(res, req, 200, found);
    },
    put: async (req, res) => {
      const id = pathId(req);
      const c = categoryRequest(await jsonBody(req));
      acceptable(req);
      const saved = await data.categories.update(id, c);
      if (!saved) throw new Problem(404, `category ${req.params.id} does not exist`);
      send(res, req, 200, saved);
    },
    delete: async (req, res) => {
      const id = pathId(req);
      if (!(await data.categories.remove(id))) throw new Problem(404, `category ${req.params.id} does not exist`);
      res.status(204).end();
    },
  });

  route('/categories/:id/items', {
    get: async (req, res) => {
      const id = pathId(req);
      const p = paging(req);
      const found = await data.items.pageInCategory(id, p);
      if (!found) throw new Problem(404, `category ${req.params.id} does not exist`);
      send(res, req, 200, page(found.content, p, found.total));
    },
  });

  route('/items', {
    get: async (req, res) => {
      const p = paging(req);
      const categoryId = req.query.categoryId === undefined ? null : queryInt(req, 'categoryId', 0, '-9223372036854775808', '9223372036854775807');
      const { content, total } = await data.items.page(p, categoryId === null ? null : int64Text(req.query.categoryId));
      send(res, req, 200, page(content, p, total));
    },
    post: async (req, res) => {
      const i = itemRequest(await jsonBody(req));
      acceptable(req);
      const saved = await data.items.create(i, categoryParam(i.categoryId));
      send(res, req, 201, saved, { Location: `/items/${saved.id}` });
    },
  });

  route('/items/:id', {
    get: async (req, res) => {
      const found = await data.items.byId(pathId(req));
      if (!found) throw new Problem(404, `item ${req.params.id} does not exist`);
      send(res, req, 200, found);
    },
    put: async (req, res) => {
      const id = pathId(req);
      const i = itemRequest(await jsonBody(req));
      acceptable(req);
      const saved = await data.items.update(id, i, categoryParam(i.categoryId));
      if (!saved) throw new Problem(404, `item ${req.params.id} does not exist`);
      send(res, req, 200, saved);
    },
    delete: async (req, res) => {
      if (!(await data.items.remove(pathId(req)))) throw new Problem(404, `item ${req.params.id} does not exist`);
      res.status(204).end();
    },
  });

  const cache = valueCache();
  route('/cache/:key', {
    get: async (req, res) => {
      const { key } = req.params;
      if (!CACHE_KEY.test(key)) throw invalid('key', "must be 1 to 64 characters, each an ASCII letter, a digit, '-' or '_'");
      send(res, req, 200, { key, value: cache.get(key) });
    },
  });

  route('/actuator/health', {
    get: async (req, res) => {
      res.status(databaseUp ? 200 : 503).type('application/json').send(JSON.stringify({ status: databaseUp ? 'UP' : 'DOWN' }));
    },
  });

  route('/actuator/prometheus', {
    get: async (req, res) => {
      res.status(200).type('text/plain; version=0.0.4; charset=utf-8').send(await registry.metrics());
    },
  });

  app.use((req, res) => {
    throw new Problem(404, `No endpoint ${req.method} ${req.path}.`);
  });

  // Every error ends here: a Problem as its status, a malformed URI or body Express refused as 400, anything else
  // logged and answered 500 (a bug: the contract tests treat any 5xx as a failure).
  app.use(async (error, req, res, _next) => {
    let status = error instanceof Problem ? error.status : error instanceof URIError || error.status === 400 ? 400 : 500;
    if (status === 500) {
      if (data.unavailable(error)) status = 503;
      console.error(`${req.method} ${req.originalUrl}:`, error);
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // A body still unread (a 405 before the body, an oversized one) is swallowed, or the connection closes with
    // the response, saying so: never a silently closed keep-alive connection the client would reuse.
    if (!req.complete && !announcedTooLarge(req)) {
      try {
        await swallow(req);
      } catch {
        // the client is gone
      }
    }
    if (!req.complete) {
      res.set('Connection', 'close');
      lingerOnClose(req, res);
    }
    res.status(status).type('application/problem+json')
      .send(problemBody(status, error instanceof Problem ? error.message : TITLES[status], safePath(req), error.errors));
  });

  function safePath(req) {
    try {
      return encodeURI(decodeURI(req.path));
    } catch {
      return undefined;
    }
  }

  // ---- Server ---------------------------------------------------------------------------------------------------

  const server = http.createServer({ requireHostHeader: false }, app);
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.maxRequestsPerSocket = 0;
  // Node answers 100 Continue itself unless told otherwise: a body it will refuse is not asked for.
  server.on('checkContinue', (req, res) => {
    if (!announcedTooLarge(req)) res.writeContinue();
    server.emit('request', req, res);
  });
  // What Node's HTTP parser refuses before Express sees it (a malformed request line or header, headers too large):
  // a problem detail instead of Node's bare 400, then the connection closes (the stream cannot be resynchronised).
  server.on('clientError', (error, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
    const body = problemBody(status, TITLES[status]);
    socket.end(`HTTP/1.1 ${status} ${TITLES[status]}\r\nContent-Type: application/problem+json\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  // CONNECT (the proxy method, target host:port) sent to this origin server: 400, as every variant answers it. Node
  // hands it to a 'connect' listener instead of Express, and without one closes the connection unanswered.
  server.on('connect', (req, socket) => {
    const body = problemBody(400, 'CONNECT is a proxy method; this is an origin server');
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n`
      + `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });

  async function main() {
    // Ready only once the database answers, as the JVM variants (whose pools connect at start).
    for (let attempt = 1; ; attempt++) {
      try {
        await data.ping();
        break;
      } catch (error) {
        if (attempt >= 30) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    databaseUp = true;
    server.listen(config.port, config.host, () => console.log(`${name}: listening on ${config.host}:${config.port}`));
  }

  function stop() {
    server.close(() => data.close().finally(() => process.exit(0)));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  }
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  main().catch((error) => {
    console.error(`${name}: cannot start:`, error.message);
    process.exit(1);
  });
  return server;
}

module.exports = { config, connectionOf, instantText, now, Problem, translate, start };
