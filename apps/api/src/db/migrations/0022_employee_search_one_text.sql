-- Issue 16, decision 0042: the employee search's trigram index (migration 0011) held three
-- expressions, so each employee's trigrams were extracted three times and a staff number that
-- its email repeats (e123@…) was indexed twice; it was two thirds of an import's insert. It now
-- holds one text, the three lower-cased columns one after the other, which the search matches
-- first and then checks column by column (employees.repository.ts, searchMatches): the same
-- answers, fewer index entries per employee.
DROP INDEX employees_search_idx;
CREATE INDEX employees_search_idx ON employees USING gin (
  (lower(employee_id) || ' ' || coalesce(lower(name), '') || ' ' || coalesce(lower(email), ''))
  gin_trgm_ops);
-- Statistics on the expression, so that a rare term is planned as an index scan.
ANALYZE employees;
