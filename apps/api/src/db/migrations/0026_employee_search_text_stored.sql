-- Issue 16, decision 0054: the employee search's text is a stored column, its parts joined by
-- U+0001 instead of a space. Counting the 10,000 employees of a 100,000-employee company that
-- match "ann" read 20,000 index candidates and computed, for each, the three lower()s of the
-- index's expression to recheck it, then three more for the test of each column (54 ms; the
-- column tests dropped a match spanning two parts, "smith e0001" across a name and an email).
-- The stored text is lowered once, when the row is written; and a search term without U+0001 can
-- only match inside one part, so that text's own test is the whole test (employees.repository.ts,
-- searchMatches). The index holds the column (trigrams are the same: pg_trgm splits words at
-- either separator).
ALTER TABLE employees ADD COLUMN search_text text GENERATED ALWAYS AS (
  lower(employee_id) || chr(1) || coalesce(lower(name), '') || chr(1) || coalesce(lower(email), '')
) STORED;
DROP INDEX employees_search_idx;
CREATE INDEX employees_search_idx ON employees USING gin (company_id, search_text gin_trgm_ops);
ANALYZE employees;
