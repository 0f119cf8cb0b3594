-- Each company's number of live employees (decision 0064), kept by the triggers of
-- modules/employees/sql/employee-counts.sql, so that the employee list's total is one row's read.
-- Counted, it was an index only scan of the company's entries, which every order makes visit the
-- heap (an order updates its employee's row and clears the page's visible bit): 58 ms for the
-- 100,000-employee company under the soak, the costliest statement of its lists.
CREATE TABLE company_employee_counts (
  company_id bigint PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  live bigint NOT NULL CHECK (live >= 0)
);

INSERT INTO company_employee_counts (company_id, live)
SELECT c.id, count(e.id)
  FROM companies c
  LEFT JOIN employees e ON e.company_id = c.id AND e.deleted_at IS NULL
 GROUP BY c.id;
