-- Every new served_stamp of a site (migration 0045: its triggers renew it at every change of what a served
-- page of the site is made of) is told to the processes sharing the database, on the channel `site_served`,
-- in the transaction that renews it: PostgreSQL delivers a NOTIFY only once its transaction commits, and
-- never one of a transaction rolled back. Each process holds the sites it serves in memory while it
-- listens (server/db/served-changes.ts, server/published/site-data.ts) and forgets the site a notice names.
-- The payload is the site's id; `*` when the change can make a published URL find another site than before
-- (a site created or deleted, its basename, hostname, organization or publication changed, the table
-- emptied), so that every process forgets every site it holds.
CREATE FUNCTION sites_tell_served() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.id = OLD.id AND NEW.basename IS NOT DISTINCT FROM OLD.basename AND NEW.hostname IS NOT DISTINCT FROM OLD.hostname
       AND NEW.organization_id = OLD.organization_id AND NEW.published = OLD.published THEN
      PERFORM pg_notify('site_served', NEW.id);
      RETURN NULL;
    END IF;
  END IF;
  PERFORM pg_notify('site_served', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_served_notice AFTER UPDATE ON sites FOR EACH ROW
  WHEN (OLD.served_stamp IS DISTINCT FROM NEW.served_stamp) EXECUTE FUNCTION sites_tell_served();
--> statement-breakpoint
CREATE TRIGGER sites_served_notice_insert_delete AFTER INSERT OR DELETE ON sites FOR EACH ROW EXECUTE FUNCTION sites_tell_served();
--> statement-breakpoint
CREATE TRIGGER sites_served_notice_truncate AFTER TRUNCATE ON sites FOR EACH STATEMENT EXECUTE FUNCTION sites_tell_served();
