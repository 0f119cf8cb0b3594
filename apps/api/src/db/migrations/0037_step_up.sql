-- Step-up (DESIGN 9, issue 45): when the session's user last proved who it is again (password or
-- second factor, POST /iam/reauthenticate). The sign-in itself is the session's created_at.
ALTER TABLE sessions ADD COLUMN reauthenticated_at timestamptz;
