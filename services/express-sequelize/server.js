'use strict';
// The plain API (contract-tests/src/main/resources/openapi.yaml) on Express 5 and Sequelize 6: services/express
// with its data access done the ORM way. The SQL is Sequelize's, generated from two models mapped onto the schema
// the harness creates (never synced or altered). One Node.js process, one event loop. No transactions, as express:
// each statement commits on its own (see README.md and sql-statements.json).
//
// This file is the data access only. The HTTP layer (routing, body reading and its limit, validation, problem
// answers, hostile-input handling, metrics, health, the server) is express's, shared: services/express-http,
// installed into node_modules as a copy (@restbench/express-http).

const pg = require('pg');
const { Sequelize, DataTypes, ConnectionError } = require('sequelize');
const { config, connectionOf, instantText, now, Problem, translate, start } = require('@restbench/express-http');

// ---- Database -------------------------------------------------------------------------------------------------

// Sequelize registers its own parsers for some types (int4, numeric, …) and leaves the others to the driver's:
// bigint as a number (ids and counts fit a double, < 2^53), timestamptz as PostgreSQL's text turned into
// Instant#toString's form with its microseconds, as express reads them.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1184, (v) => instantText(v));

/**
 * timestamptz kept to the microsecond. Sequelize's DATE goes through a JS Date both ways (milliseconds: it turns
 * a set value into a Date and writes it with three decimals), so its own automatic timestamps cannot store the
 * contract's Instant.now() truncated to microseconds. This type passes the text through: written as a bind
 * parameter PostgreSQL types from the column, read by the driver's timestamptz parser above. It extends the class
 * behind DataTypes.ABSTRACT: that export is a callable proxy, and `new` of a subclass of it builds a bare ABSTRACT.
 */
class INSTANT extends DataTypes.ABSTRACT.prototype.constructor {
  toSql() {
    return 'TIMESTAMP WITH TIME ZONE';
  }
}
INSTANT.prototype.key = INSTANT.key = 'INSTANT';

const sequelize = new Sequelize({
  dialect: 'postgres',
  dialectModule: pg,
  ...connectionOf(config.dbUrl),
  username: config.dbUser,
  password: config.dbPassword,
  // Sequelize's pool (sequelize-pool) of node-postgres clients, fixed at DB_POOL_SIZE as express sizes pg's.
  pool: { max: config.poolSize, min: config.poolSize, acquire: 60_000 },
  dialectOptions: { application_name: 'express-sequelize' },
  // Each new connection is set to UTC (Sequelize's default time zone, +00:00): timestamptz text ends in +00.
  timezone: '+00:00',
  // Sequelize prints every statement to the console unless told not to.
  logging: false,
  define: { timestamps: false, freezeTableName: true },
});

// The schema is the harness's (shared/schema): tables, columns and timestamps mapped explicitly, no sync().
const Category = sequelize.define('Category', {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  code: { type: DataTypes.STRING(64), allowNull: false },
  name: { type: DataTypes.STRING(200), allowNull: false },
  updatedAt: { type: INSTANT, allowNull: false, field: 'updated_at' },
}, { tableName: 'category', timestamps: false });

const Item = sequelize.define('Item', {
  id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
  sku: { type: DataTypes.STRING(64), allowNull: false },
  name: { type: DataTypes.STRING(200), allowNull: false },
  price: {
    type: DataTypes.DECIMAL(10, 2),
    allowNull: false,
    // numeric arrives as text (Sequelize's parser keeps its precision); two decimals below 10^8 fit a double.
    get() {
      const value = this.getDataValue('price');
      return value === null || value === undefined ? value : Number(value);
    },
  },
  stock: { type: DataTypes.INTEGER, allowNull: false },
  description: { type: DataTypes.TEXT, allowNull: true },
  categoryId: { type: DataTypes.BIGINT, allowNull: false, field: 'category_id' },
  updatedAt: { type: INSTANT, allowNull: false, field: 'updated_at' },
}, { tableName: 'item', timestamps: false });

Item.belongsTo(Category, { as: 'category', foreignKey: 'categoryId' });

/** An item's category in the same SELECT (a join), never one query per item. */
const WITH_CATEGORY = [{ model: Category, as: 'category' }];
const BY_ID = [['id', 'ASC']];

const category = (c) => ({ id: c.id, code: c.code, name: c.name, updatedAt: c.updatedAt });
const item = (i, c = i.category) => ({
  id: i.id, sku: i.sku, name: i.name, price: i.price, stock: i.stock, description: i.description,
  category: category(c), updatedAt: i.updatedAt,
});

/** A page's window as Sequelize takes it (page ≤ 2^31-1 and size ≤ 100: the offset is far below 2^53). */
const slice = (p) => ({ order: BY_ID, limit: p.size, offset: Number(p.offset) });

/**
 * The category of an item just written (item.getCategory(): one SELECT by primary key). The foreign key held when
 * the item was written; it is gone now only if the item and then its category were deleted in between.
 */
async function categoryOf(saved) {
  const found = await saved.getCategory();
  if (!found) throw new Problem(409, `item ${saved.id} was deleted while it was written`);
  return found;
}


/** PostgreSQL's refusal as the HTTP layer translates it: Sequelize wraps the driver's error (UniqueConstraintError,
 * ForeignKeyConstraintError, DatabaseError, …), whose parent has PostgreSQL's SQLSTATE and constraint name. */
const refusal = (error, itemCategoryId) => translate(error, itemCategoryId, error.parent ?? error);

start('express-sequelize', {
  ping: () => sequelize.authenticate(),
  close: () => sequelize.close(),
  pool: {
    help: 'Sequelize pool connections',
    stats: () => {
      const { pool } = sequelize.connectionManager;
      return { total: pool.size, idle: pool.available, waiting: pool.waiting };
    },
  },
  unavailable: (error) => error instanceof ConnectionError || (error.parent ?? error).code === '57P01',
  categories: {
    page: async (p) => {
      // findAndCountAll: a count and the page (Sequelize sends both at once, on two pooled connections).
      const { count, rows } = await Category.findAndCountAll(slice(p));
      return { content: rows.map(category), total: count };
    },
    byId: async (id) => {
      const found = await Category.findByPk(id);
      return found ? category(found) : null;
    },
    create: async (c) => {
      // INSERT … RETURNING: the instance gets the id and the stored values back in the same statement.
      const saved = await Category.create({ code: c.code, name: c.name, updatedAt: now() }).catch((e) => { throw refusal(e); });
      return category(saved);
    },
    update: async (id, c) => {
      // One UPDATE … RETURNING (Model.update with returning), not findByPk + save: no row read before it is changed.
      const [, [saved]] = await Category.update({ code: c.code, name: c.name, updatedAt: now() },
        { where: { id }, returning: true }).catch((e) => { throw refusal(e); });
      return saved ? category(saved) : null;
    },
    remove: async (id) => (await Category.destroy({ where: { id } }).catch((e) => { throw refusal(e); })) !== 0,
  },
  items: {
    page: async (p, categoryId) => {
      const where = categoryId === null ? {} : { categoryId };
      const { count, rows } = await Item.findAndCountAll({ where, include: WITH_CATEGORY, ...slice(p) });
      return { content: rows.map((i) => item(i)), total: count };
    },
    pageInCategory: async (id, p) => {
      const { count, rows } = await Item.findAndCountAll({ where: { categoryId: id }, include: WITH_CATEGORY, ...slice(p) });
      // An item proves its category exists (foreign key): the category is only looked up when it has none.
      if (count === 0 && !(await Category.findByPk(id, { attributes: ['id'] }))) return null;
      return { content: rows.map((i) => item(i)), total: count };
    },
    byId: async (id) => {
      const found = await Item.findByPk(id, { include: WITH_CATEGORY });
      return found ? item(found) : null;
    },
    create: async (i, categoryId) => {
      // INSERT … RETURNING, the foreign key checking the category (race-free, as in express), then the category
      // for the answer: Sequelize has no INSERT joined with another table.
      const saved = await Item.create({ sku: i.sku, name: i.name, price: i.price, stock: i.stock, description: i.description,
        categoryId, updatedAt: now() }).catch((e) => { throw refusal(e, i.categoryId); });
      return item(saved, await categoryOf(saved));
    },
    update: async (id, i, categoryId) => {
      // UPDATE … RETURNING (no SELECT before it), then the category for the answer, whichever it now is.
      const [, [saved]] = await Item.update({ sku: i.sku, name: i.name, price: i.price, stock: i.stock,
        description: i.description, categoryId, updatedAt: now() },
      { where: { id }, returning: true }).catch((e) => { throw refusal(e, i.categoryId); });
      return saved ? item(saved, await categoryOf(saved)) : null;
    },
    remove: async (id) => (await Item.destroy({ where: { id } })) !== 0,
  },
});
