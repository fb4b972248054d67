'use strict';
// The plain API (contract-tests/src/main/resources/openapi.yaml) on Express 5 and node-postgres: seed 004's
// Express stack. One Node.js process, one event loop: the method gives every service one core, and the runner
// reads one process's CPU. SQL as jersey's plain JDBC: one statement per write (… RETURNING joined with the
// category), count + content per page, auto-commit (no BEGIN/COMMIT on the wire).
//
// This file is the data access only. The HTTP layer (routing, body reading and its limit, validation, problem
// answers, hostile-input handling, metrics, health, the server) is services/express-http, shared with
// express-sequelize and installed into node_modules as a copy (@restbench/express-http).

const { Pool, types } = require('pg');
const { config, connectionOf, instantText, now, translate, start } = require('@restbench/express-http');

// ---- Database -------------------------------------------------------------------------------------------------

// bigint and numeric arrive as text: ids and counts fit a double (< 2^53), prices have two decimals.
types.setTypeParser(20, (v) => Number(v));
types.setTypeParser(1700, (v) => Number(v));
// timestamptz as PostgreSQL's text, turned into Instant#toString's form (microseconds kept; Date has only ms).
types.setTypeParser(1184, (v) => instantText(v));

const pool = new Pool({
  ...connectionOf(config.dbUrl),
  user: config.dbUser,
  password: config.dbPassword,
  max: config.poolSize,
  min: config.poolSize,
  idleTimeoutMillis: 0,
  options: '-c TimeZone=UTC',
  application_name: 'express',
});
pool.on('error', () => { /* an idle client lost: the pool replaces it on the next query */ });

const ITEM_COLUMNS = `i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
  c.id AS category_id, c.code AS category_code, c.name AS category_name, c.updated_at AS category_updated_at`;
const SQL = {
  categoryById: 'SELECT id, code, name, updated_at FROM category WHERE id = $1',
  categoryCount: 'SELECT count(*) FROM category',
  categoryPage: 'SELECT id, code, name, updated_at FROM category ORDER BY id LIMIT $1 OFFSET $2',
  categoryInsert: 'INSERT INTO category (code, name, updated_at) VALUES ($1, $2, $3) RETURNING id, code, name, updated_at',
  categoryUpdate: 'UPDATE category SET code = $1, name = $2, updated_at = $3 WHERE id = $4 RETURNING id, code, name, updated_at',
  categoryDelete: 'DELETE FROM category WHERE id = $1',
  itemById: `SELECT ${ITEM_COLUMNS} FROM item i JOIN category c ON c.id = i.category_id WHERE i.id = $1`,
  itemCount: 'SELECT count(*) FROM item',
  itemCountByCategory: 'SELECT count(*) FROM item WHERE category_id = $1',
  // No row when the category does not exist: "404 or count" in one statement.
  itemCountInExistingCategory: 'SELECT count(i.id) FROM category c LEFT JOIN item i ON i.category_id = c.id WHERE c.id = $1 GROUP BY c.id',
  itemPage: `SELECT ${ITEM_COLUMNS} FROM item i JOIN category c ON c.id = i.category_id ORDER BY i.id LIMIT $1 OFFSET $2`,
  itemPageByCategory: `SELECT ${ITEM_COLUMNS} FROM item i JOIN category c ON c.id = i.category_id WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3`,
  itemInsert: `WITH saved AS (INSERT INTO item (sku, name, price, stock, description, category_id, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, sku, name, price, stock, description, category_id, updated_at)
    SELECT ${ITEM_COLUMNS} FROM saved i JOIN category c ON c.id = i.category_id`,
  itemUpdate: `WITH saved AS (UPDATE item SET sku = $1, name = $2, price = $3, stock = $4, description = $5, category_id = $6,
    updated_at = $7 WHERE id = $8 RETURNING id, sku, name, price, stock, description, category_id, updated_at)
    SELECT ${ITEM_COLUMNS} FROM saved i JOIN category c ON c.id = i.category_id`,
  itemDelete: 'DELETE FROM item WHERE id = $1',
};

/** A named (prepared once per connection) statement, as pgjdbc prepares jersey's after a few executions. */
function query(name, values) {
  return pool.query({ name, text: SQL[name], values });
}

const category = (r) => ({ id: r.id, code: r.code, name: r.name, updatedAt: r.updated_at });
const item = (r) => ({
  id: r.id, sku: r.sku, name: r.name, price: r.price, stock: r.stock, description: r.description,
  category: { id: r.category_id, code: r.category_code, name: r.category_name, updatedAt: r.category_updated_at },
  updatedAt: r.updated_at,
});

start('express', {
  ping: () => pool.query('SELECT 1'),
  close: () => pool.end(),
  pool: {
    help: 'node-postgres pool clients',
    stats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  },
  unavailable: (error) => error.code === 'ECONNREFUSED' || error.code === '57P01',
  categories: {
    page: async (p) => {
      const total = (await query('categoryCount', [])).rows[0].count;
      const rows = (await query('categoryPage', [p.size, p.offset.toString()])).rows;
      return { content: rows.map(category), total };
    },
    byId: async (id) => {
      const row = (await query('categoryById', [id])).rows[0];
      return row ? category(row) : null;
    },
    create: async (c) => {
      const row = await query('categoryInsert', [c.code, c.name, now()]).then((r) => r.rows[0], (e) => { throw translate(e); });
      return category(row);
    },
    update: async (id, c) => {
      const row = await query('categoryUpdate', [c.code, c.name, now(), id]).then((r) => r.rows[0], (e) => { throw translate(e); });
      return row ? category(row) : null;
    },
    remove: async (id) => {
      const result = await query('categoryDelete', [id]).catch((e) => { throw translate(e); });
      return result.rowCount !== 0;
    },
  },
  items: {
    page: async (p, categoryId) => {
      const byCategory = categoryId !== null;
      const total = (await (byCategory ? query('itemCountByCategory', [categoryId]) : query('itemCount', []))).rows[0].count;
      const rows = (await (byCategory ? query('itemPageByCategory', [categoryId, p.size, p.offset.toString()])
        : query('itemPage', [p.size, p.offset.toString()]))).rows;
      return { content: rows.map(item), total };
    },
    pageInCategory: async (id, p) => {
      const counted = (await query('itemCountInExistingCategory', [id])).rows[0];
      if (!counted) return null;
      const rows = (await query('itemPageByCategory', [id, p.size, p.offset.toString()])).rows;
      return { content: rows.map(item), total: counted.count };
    },
    byId: async (id) => {
      const row = (await query('itemById', [id])).rows[0];
      return row ? item(row) : null;
    },
    create: async (i, categoryId) => {
      const row = await query('itemInsert', [i.sku, i.name, i.price, i.stock, i.description, categoryId, now()])
        .then((r) => r.rows[0], (e) => { throw translate(e, i.categoryId); });
      return item(row);
    },
    update: async (id, i, categoryId) => {
      const row = await query('itemUpdate', [i.sku, i.name, i.price, i.stock, i.description, categoryId, now(), id])
        .then((r) => r.rows[0], (e) => { throw translate(e, i.categoryId); });
      return row ? item(row) : null;
    },
    remove: async (id) => (await query('itemDelete', [id])).rowCount !== 0,
  },
});
