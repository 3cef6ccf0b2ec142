// Package rows declares the expressions of a query language and the rows
// they are evaluated on, as a SQL engine's core package does. It evaluates
// none of them: the executor that evaluates an expression once per row is
// code that depends on the packages that implement them, whose facts those
// packages never see.
package rows

// Row is one row of a table.
type Row []any

// Expression is evaluated on a row.
type Expression interface {
	Eval(row Row) (any, error)
}
