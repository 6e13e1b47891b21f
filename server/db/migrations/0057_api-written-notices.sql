-- Every write to a table API answers are read from is told to the processes sharing the database, on the
-- channel `api_written`, in the transaction that writes: PostgreSQL delivers a NOTIFY only once its
-- transaction commits, never one of a transaction rolled back, and folds a transaction's identical notices
-- into one. Each process holds the answers of its most frequent reads while it listens (server/http/
-- read-cache.ts, server/db/served-changes.ts) and forgets them all at any notice: a statement trigger
-- (one notice per statement, not per row) on every table, so that no write, by this server, another one or
-- a tool, is missed. A table created later gets its trigger in its own migration (test/read-cache.test.ts
-- checks that every table has it).
--
-- Three tables are left out, as the server writes them on its own while nothing an answer shows changes,
-- and no held answer reads them: `jobs` (the queue's claims and lock renewals, written by every worker
-- while it works), `rate_limit_counts` (the shared limiter's counts, written every second under load) and
-- `data_migrations` (the record of data migrations run at start-up).
CREATE FUNCTION tell_api_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('api_written', '');
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables
           WHERE schemaname = current_schema() AND tablename NOT IN ('jobs', 'rate_limit_counts', 'data_migrations')
  LOOP
    EXECUTE format('CREATE TRIGGER api_written AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION tell_api_written()', t.tablename);
  END LOOP;
END $$;
