package main

import (
	"context"
	"errors"
	"math/big"
	"net"
	"strconv"
	"strings"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The SQL, statement for statement as jersey's plain JDBC (shared/plain-jdbc: CategoryRepository, ItemRepository),
// with PostgreSQL's $n placeholders where pgjdbc rewrites its ?s into the same.
const (
	itemColumns = `i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
c.id AS category_id, c.code AS category_code, c.name AS category_name,
c.updated_at AS category_updated_at`
	fromItemJoinCategory = " FROM item i JOIN category c ON c.id = i.category_id"
	returningItem        = " RETURNING id, sku, name, price, stock, description, category_id, updated_at)" +
		" SELECT " + itemColumns + " FROM saved i JOIN category c ON c.id = i.category_id"

	sqlCategoryByID     = "SELECT id, code, name, updated_at FROM category WHERE id = $1"
	sqlCategoryCount    = "SELECT count(*) FROM category"
	sqlCategoryPage     = "SELECT id, code, name, updated_at FROM category ORDER BY id LIMIT $1 OFFSET $2"
	sqlCategoryInsert   = "INSERT INTO category (code, name, updated_at) VALUES ($1, $2, $3) RETURNING id, code, name, updated_at"
	sqlCategoryUpdate   = "UPDATE category SET code = $1, name = $2, updated_at = $3 WHERE id = $4 RETURNING id, code, name, updated_at"
	sqlCategoryDelete   = "DELETE FROM category WHERE id = $1"
	sqlItemByID         = "SELECT " + itemColumns + fromItemJoinCategory + " WHERE i.id = $1"
	sqlItemCount        = "SELECT count(*) FROM item"
	sqlItemCountByCat   = "SELECT count(*) FROM item WHERE category_id = $1"
	sqlItemCountInCat   = "SELECT count(i.id) FROM category c LEFT JOIN item i ON i.category_id = c.id WHERE c.id = $1 GROUP BY c.id"
	sqlItemPage         = "SELECT " + itemColumns + fromItemJoinCategory + " ORDER BY i.id LIMIT $1 OFFSET $2"
	sqlItemPageByCat    = "SELECT " + itemColumns + fromItemJoinCategory + " WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3"
	sqlItemInsert       = "WITH saved AS (INSERT INTO item (sku, name, price, stock, description, category_id, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)" + returningItem
	sqlItemUpdate       = "WITH saved AS (UPDATE item SET sku = $1, name = $2, price = $3, stock = $4, description = $5, category_id = $6, updated_at = $7 WHERE id = $8" + returningItem
	sqlItemDelete       = "DELETE FROM item WHERE id = $1"
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

type app struct {
	db           *pgxpool.Pool
	maxBodyBytes int64
	metrics      *metrics
	faults       *faults // nil unless the regression drill asks for them
	routes       []*route
	cache        *lru.Cache[string, string]
}

// ---- JSON shapes --------------------------------------------------------------------------------------------------

// instant: Java's Instant#toString of a time truncated to microseconds (UTC, fraction of none, 3 or 6 digits).
type instant time.Time

func (t instant) MarshalJSON() ([]byte, error) {
	return []byte(`"` + instantText(time.Time(t)) + `"`), nil
}

func instantText(t time.Time) string {
	t = t.UTC()
	text := t.Format("2006-01-02T15:04:05")
	nanos := t.Nanosecond()
	switch {
	case nanos == 0:
	case nanos%1_000_000 == 0:
		text += "." + leftPad(nanos/1_000_000, 3)
	case nanos%1000 == 0:
		text += "." + leftPad(nanos/1000, 6)
	default:
		text += "." + leftPad(nanos, 9)
	}
	return text + "Z"
}

func leftPad(n, width int) string {
	s := strconv.Itoa(n)
	return strings.Repeat("0", width-len(s)) + s
}

// now: the time every variant stores for a write, truncated to microseconds (PostgreSQL's resolution).
func now() time.Time {
	return time.Now().UTC().Truncate(time.Microsecond)
}

// price: numeric(10,2) as PostgreSQL returns it (e.g. 12.50), a JSON number as BigDecimal writes it.
type price pgtype.Numeric

func (p price) MarshalJSON() ([]byte, error) {
	return []byte(decimalText(pgtype.Numeric(p))), nil
}

func decimalText(n pgtype.Numeric) string {
	if !n.Valid || n.Int == nil {
		return "null"
	}
	digits := new(big.Int).Abs(n.Int).String()
	sign := ""
	if n.Int.Sign() < 0 {
		sign = "-"
	}
	if n.Exp >= 0 {
		return sign + digits + strings.Repeat("0", int(n.Exp))
	}
	scale := int(-n.Exp)
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}

type category struct {
	ID        int64   `json:"id"`
	Code      string  `json:"code"`
	Name      string  `json:"name"`
	UpdatedAt instant `json:"updatedAt"`
}

type item struct {
	ID          int64    `json:"id"`
	SKU         string   `json:"sku"`
	Name        string   `json:"name"`
	Price       price    `json:"price"`
	Stock       int32    `json:"stock"`
	Description *string  `json:"description"`
	Category    category `json:"category"`
	UpdatedAt   instant  `json:"updatedAt"`
}

type page[T any] struct {
	Content       []T   `json:"content"`
	Page          int64 `json:"page"`
	Size          int64 `json:"size"`
	TotalElements int64 `json:"totalElements"`
	TotalPages    int64 `json:"totalPages"`
}

func pageOf[T any](content []T, p paging, total int64) page[T] {
	if content == nil {
		content = []T{}
	}
	return page[T]{Content: content, Page: p.page, Size: p.size, TotalElements: total,
		TotalPages: (total + p.size - 1) / p.size}
}

func scanCategory(row pgx.Row) (category, error) {
	var c category
	var updated time.Time
	err := row.Scan(&c.ID, &c.Code, &c.Name, &updated)
	c.UpdatedAt = instant(updated)
	return c, err
}

func scanItem(row pgx.Row) (item, error) {
	var i item
	var amount pgtype.Numeric
	var updated, categoryUpdated time.Time
	err := row.Scan(&i.ID, &i.SKU, &i.Name, &amount, &i.Stock, &i.Description, &updated,
		&i.Category.ID, &i.Category.Code, &i.Category.Name, &categoryUpdated)
	i.Price, i.UpdatedAt, i.Category.UpdatedAt = price(amount), instant(updated), instant(categoryUpdated)
	return i, err
}

// all: every row of a statement, scanned.
func all[T any](ctx context.Context, db *pgxpool.Pool, scan func(pgx.Row) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var content []T
	for rows.Next() {
		value, err := scan(rows)
		if err != nil {
			return nil, err
		}
		content = append(content, value)
	}
	return content, rows.Err()
}

// one: the single row of a statement; none is a 404 for that resource, other errors go through translate.
func one[T any](value T, err error, what string, id int64, translate func(error) error) (T, error) {
	if errors.Is(err, pgx.ErrNoRows) {
		return value, newProblem(404, "%s %d does not exist", what, id)
	} else if err != nil {
		return value, translate(err)
	}
	return value, nil
}

func unchanged(err error) error { return err }

// ---- Database errors ----------------------------------------------------------------------------------------------

func constraintError(err error, code, constraint string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == code && pgErr.ConstraintName == constraint
}

// storable: PostgreSQL refused a value (data exception 22xxx, integrity 23xxx): the client's 400, not a 500.
func unstorable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (strings.HasPrefix(pgErr.Code, "22") || strings.HasPrefix(pgErr.Code, "23"))
}

func isUnavailable(err error) bool {
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	return errors.As(err, &netErr) || errors.As(err, &connectErr) || pgconn.SafeToRetry(err) ||
		errors.Is(err, context.DeadlineExceeded)
}

// ---- Handlers -----------------------------------------------------------------------------------------------------

func (a *app) withRoutes() *app {
	a.cache = newValueCache()
	a.routes = []*route{
		newRoute("/categories", map[string]handlerFunc{"GET": a.listCategories, "POST": a.createCategory}),
		newRoute("/categories/{id}", map[string]handlerFunc{"GET": a.getCategory, "PUT": a.updateCategory,
			"DELETE": a.deleteCategory}),
		newRoute("/categories/{id}/items", map[string]handlerFunc{"GET": a.categoryItems}),
		newRoute("/items", map[string]handlerFunc{"GET": a.listItems, "POST": a.createItem}),
		newRoute("/items/{id}", map[string]handlerFunc{"GET": a.getItem, "PUT": a.updateItem, "DELETE": a.deleteItem}),
		newRoute("/cache/{key}", map[string]handlerFunc{"GET": a.getCacheValue}),
		newRoute("/actuator/health", map[string]handlerFunc{"GET": a.health}),
		newRoute("/actuator/prometheus", map[string]handlerFunc{"GET": a.prometheus}),
	}
	return a
}

// acceptableID: what every handler of one resource checks first: Accept (before anything changes), the path id.
func (x *exchange) acceptableID() (int64, error) {
	if err := x.acceptable(); err != nil {
		return 0, err
	}
	return x.id()
}

// 2 statements: count, then content.
func (a *app) listCategories(x *exchange) error {
	if err := x.acceptable(); err != nil {
		return err
	}
	p, perr := x.query().paging()
	if perr != nil {
		return perr
	}
	return countedPage(x, p, a.count(x, sqlCategoryCount), scanCategory, sqlCategoryPage)
}

// 1 statement.
func (a *app) getCategory(x *exchange) error {
	return getOne(x, scanCategory, sqlCategoryByID, "category")
}

// getOne: one resource by its path id, 404 when there is none.
func getOne[T any](x *exchange, scan func(pgx.Row) (T, error), sql, what string) error {
	id, err := x.acceptableID()
	if err != nil {
		return err
	}
	value, err := scan(x.app.db.QueryRow(x.r.Context(), sql, id))
	if value, err = one(value, err, what, id, unchanged); err != nil {
		return err
	}
	return x.send(200, value)
}

// count: a statement's one count (no row: pgx.ErrNoRows).
func (a *app) count(x *exchange, sql string, args ...any) func() (int64, error) {
	return func() (int64, error) {
		var total int64
		err := a.db.QueryRow(x.r.Context(), sql, args...).Scan(&total)
		return total, err
	}
}

// countedPage: a page as every list reads it, the count and then the content: 2 statements.
func countedPage[T any](x *exchange, p paging, count func() (int64, error), scan func(pgx.Row) (T, error), sql string,
	args ...any) error {
	total, err := count()
	if err != nil {
		return err
	}
	content, err := all(x.r.Context(), x.app.db, scan, sql, append(args, p.size, p.offset())...)
	if err != nil {
		return err
	}
	return x.send(200, pageOf(content, p, total))
}

func categoryWriteError(err error) error {
	if constraintError(err, uniqueViolation, "category_code_key") {
		return newProblem(409, "code already exists")
	}
	if unstorable(err) {
		return newProblem(400, "a value PostgreSQL cannot store")
	}
	return err
}

// 1 statement; a duplicate code is a 409 from the unique constraint (race-free).
func (a *app) createCategory(x *exchange) error {
	if err := x.acceptable(); err != nil {
		return err
	}
	request, err := x.categoryRequest()
	if err != nil {
		return err
	}
	c, err := scanCategory(a.db.QueryRow(x.r.Context(), sqlCategoryInsert, request.code, request.name, now()))
	if err != nil {
		return categoryWriteError(err)
	}
	return x.send(201, c, "Location", "/categories/"+strconv.FormatInt(c.ID, 10))
}

// 1 statement; 404 when there is no such category.
func (a *app) updateCategory(x *exchange) error {
	id, err := x.acceptableID()
	if err != nil {
		return err
	}
	request, err := x.categoryRequest()
	if err != nil {
		return err
	}
	c, err := scanCategory(a.db.QueryRow(x.r.Context(), sqlCategoryUpdate, request.code, request.name, now(), id))
	if c, err = one(c, err, "category", id, categoryWriteError); err != nil {
		return err
	}
	return x.send(200, c)
}

// 1 statement; 404 when there is no such category, 409 while items still reference it.
func (a *app) deleteCategory(x *exchange) error {
	id, err := x.id()
	if err != nil {
		return err
	}
	tag, err := a.db.Exec(x.r.Context(), sqlCategoryDelete, id)
	if constraintError(err, foreignKeyViolation, "item_category_fk") {
		return newProblem(409, "category %d still has items", id)
	}
	return deleted(x, tag, err, "category", id)
}

// deleted: 204, or 404 when no row was deleted.
func deleted(x *exchange, tag pgconn.CommandTag, err error, what string, id int64) error {
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return newProblem(404, "%s %d does not exist", what, id)
	}
	return x.noContent()
}

// 2 statements (a count that also proves the category exists, then the content); 1 when it does not exist.
func (a *app) categoryItems(x *exchange) error {
	id, err := x.acceptableID()
	if err != nil {
		return err
	}
	p, perr := x.query().paging()
	if perr != nil {
		return perr
	}
	counted := func() (int64, error) {
		total, err := a.count(x, sqlItemCountInCat, id)()
		return one(total, err, "category", id, unchanged)
	}
	return countedPage(x, p, counted, scanItem, sqlItemPageByCat, id)
}

// 2 statements: count, then content; categoryId an optional filter.
func (a *app) listItems(x *exchange) error {
	if err := x.acceptable(); err != nil {
		return err
	}
	q := x.query()
	p, perr := q.paging()
	if perr != nil {
		return perr
	}
	categoryID, perr := q.optionalID("categoryId")
	if perr != nil {
		return perr
	}
	if categoryID != nil {
		return countedPage(x, p, a.count(x, sqlItemCountByCat, *categoryID), scanItem, sqlItemPageByCat, *categoryID)
	}
	return countedPage(x, p, a.count(x, sqlItemCount), scanItem, sqlItemPage)
}

// 1 statement.
func (a *app) getItem(x *exchange) error {
	return getOne(x, scanItem, sqlItemByID, "item")
}

func unknownCategory(categoryID string) error {
	return invalidField("categoryId", "category "+categoryID+" does not exist")
}

func itemWriteError(request itemRequest) func(error) error {
	return func(err error) error {
		switch {
		case constraintError(err, uniqueViolation, "item_sku_key"):
			return newProblem(409, "sku already exists")
		case constraintError(err, foreignKeyViolation, "item_category_fk"):
			return unknownCategory(strconv.FormatInt(request.categoryID, 10))
		case unstorable(err):
			return newProblem(400, "a value PostgreSQL cannot store")
		}
		return err
	}
}

func (x *exchange) categoryRequest() (categoryRequest, error) {
	body, err := x.jsonBody()
	if err != nil {
		return categoryRequest{}, err
	}
	request, perr := validCategory(body)
	if perr != nil {
		return categoryRequest{}, perr
	}
	return request, nil
}

func (x *exchange) itemRequest() (itemRequest, error) {
	body, err := x.jsonBody()
	if err != nil {
		return itemRequest{}, err
	}
	request, perr := validItem(body)
	if perr != nil {
		return itemRequest{}, perr
	}
	if request.categoryOutOfRange != "" {
		// Outside int64: no category has that id (the same 400 as an unknown one, without asking PostgreSQL).
		return itemRequest{}, unknownCategory(shortened(request.categoryOutOfRange))
	}
	return request, nil
}

// 1 statement: INSERT … RETURNING joined with the category; an unknown category is a 400 from the foreign key.
func (a *app) createItem(x *exchange) error {
	if err := x.acceptable(); err != nil {
		return err
	}
	r, err := x.itemRequest()
	if err != nil {
		return err
	}
	i, err := scanItem(a.db.QueryRow(x.r.Context(), sqlItemInsert, r.sku, r.name, r.price, r.stock, r.description,
		r.categoryID, now()))
	if err != nil {
		return itemWriteError(r)(err)
	}
	return x.send(201, i, "Location", "/items/"+strconv.FormatInt(i.ID, 10))
}

// 1 statement: UPDATE … RETURNING joined with the (new) category; 404 when there is no such item.
func (a *app) updateItem(x *exchange) error {
	id, err := x.acceptableID()
	if err != nil {
		return err
	}
	r, err := x.itemRequest()
	if err != nil {
		return err
	}
	i, err := scanItem(a.db.QueryRow(x.r.Context(), sqlItemUpdate, r.sku, r.name, r.price, r.stock, r.description,
		r.categoryID, now(), id))
	if i, err = one(i, err, "item", id, itemWriteError(r)); err != nil {
		return err
	}
	return x.send(200, i)
}

// 1 statement.
func (a *app) deleteItem(x *exchange) error {
	id, err := x.id()
	if err != nil {
		return err
	}
	tag, err := a.db.Exec(x.r.Context(), sqlItemDelete, id)
	return deleted(x, tag, err, "item", id)
}

// UP once the first query succeeded at start (the service listens only then); no query per call, so the SQL
// count windows and the runner's health polls cost the database nothing.
func (a *app) health(x *exchange) error {
	return x.send(200, map[string]string{"status": "UP"})
}

func (a *app) prometheus(x *exchange) error {
	x.status = 200
	a.metrics.handler.ServeHTTP(x.w, x.r)
	return nil
}
