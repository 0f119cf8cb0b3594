-- Issue 16, decision 0053: the employee search's trigram index (migrations 0011, 0022) held only
-- the searched text, so a search within one company found every company's matches in the index,
-- then read and rechecked each of them in the table before the company's filter dropped most:
-- "ann" in a company of 200 read the 20,000 matches of all 500 companies (3.9 ms; 0.4 ms now),
-- and in the company of 100,000 twice its own. The company now leads the index (btree_gin gives
-- bigint a GIN operator class), so the index hands over only the company's matches. A search
-- over every company (an admin's, Group HR's) uses the same index on its text alone.
CREATE EXTENSION IF NOT EXISTS btree_gin;
DROP INDEX employees_search_idx;
CREATE INDEX employees_search_idx ON employees USING gin (
  company_id,
  (lower(employee_id) || ' ' || coalesce(lower(name), '') || ' ' || coalesce(lower(email), ''))
  gin_trgm_ops);
ANALYZE employees;
