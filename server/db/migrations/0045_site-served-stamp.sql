ALTER TABLE "sites" ADD COLUMN "served_stamp" text DEFAULT gen_random_uuid()::text NOT NULL;--> statement-breakpoint
-- sites.served_stamp is made again at every change of what a served page of the site is made of, by these
-- triggers, whoever writes (the API, a tool, another process): the published site and URL resolution
-- (server/published/site-data.ts) keep what they read of a site under its stamp and read the stamp on every
-- request, so a stamp that did not change means nothing they hold changed. A change of the site row itself
-- (any column) makes one, unless the update sets a new one itself (the triggers below do).
CREATE FUNCTION sites_renew_served_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.served_stamp IS NOT DISTINCT FROM OLD.served_stamp THEN
    NEW.served_stamp := gen_random_uuid()::text;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER sites_served_stamp BEFORE UPDATE ON sites FOR EACH ROW EXECUTE FUNCTION sites_renew_served_stamp();
--> statement-breakpoint
-- A row with a `site_id` (a section or group, a site space, a live redirect, an installation on the site)
-- inserted, changed or deleted: a new stamp for its site, and for the one it left when it moved. A site
-- being deleted takes its rows with it; its own row, gone, is not found by the update.
CREATE FUNCTION site_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE id = OLD.site_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.site_id IS DISTINCT FROM OLD.site_id) THEN
    UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE id = NEW.site_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER site_sections_served_stamp AFTER INSERT OR UPDATE OR DELETE ON site_sections FOR EACH ROW EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
CREATE TRIGGER site_spaces_served_stamp AFTER INSERT OR UPDATE OR DELETE ON site_spaces FOR EACH ROW EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
CREATE TRIGGER integration_site_installations_served_stamp AFTER INSERT OR UPDATE OR DELETE ON integration_site_installations FOR EACH ROW EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
-- Draft redirects are not served: only a change that makes, changes or removes a live one counts.
CREATE TRIGGER site_redirects_served_stamp_insert AFTER INSERT ON site_redirects FOR EACH ROW WHEN (NOT NEW.draft) EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
CREATE TRIGGER site_redirects_served_stamp_update AFTER UPDATE ON site_redirects FOR EACH ROW WHEN (NOT OLD.draft OR NOT NEW.draft) EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
CREATE TRIGGER site_redirects_served_stamp_delete AFTER DELETE ON site_redirects FOR EACH ROW WHEN (NOT OLD.draft) EXECUTE FUNCTION site_part_changed();
--> statement-breakpoint
-- A space's title, current revision (a merge) or trash state: a new stamp for every site publishing it. A
-- space deleted for good takes its site spaces with it (their trigger).
CREATE FUNCTION space_served_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE id IN (SELECT ss.site_id FROM site_spaces ss WHERE ss.space_id = NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER spaces_served_stamp AFTER UPDATE ON spaces FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.revision_id IS DISTINCT FROM NEW.revision_id
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION space_served_changed();
--> statement-breakpoint
-- What concerns every site of an organization: its hostname (in its sites' URLs), and its installations
-- (one installed on all sites puts its script on each), as inserted, deleted or changed in what
-- site-scripts.ts reads of them.
CREATE FUNCTION organization_sites_served_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE organization_id = OLD.organization_id;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.organization_id IS DISTINCT FROM OLD.organization_id) THEN
    UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE organization_id = NEW.organization_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER integration_installations_served_stamp_insert_delete AFTER INSERT OR DELETE ON integration_installations FOR EACH ROW EXECUTE FUNCTION organization_sites_served_changed();
--> statement-breakpoint
CREATE TRIGGER integration_installations_served_stamp_update AFTER UPDATE ON integration_installations FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.site_selection IS DISTINCT FROM NEW.site_selection
        OR OLD.organization_id IS DISTINCT FROM NEW.organization_id OR OLD.integration_name IS DISTINCT FROM NEW.integration_name OR OLD.id IS DISTINCT FROM NEW.id)
  EXECUTE FUNCTION organization_sites_served_changed();
--> statement-breakpoint
CREATE FUNCTION organization_hostname_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sites SET served_stamp = gen_random_uuid()::text WHERE organization_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER organizations_served_stamp AFTER UPDATE ON organizations FOR EACH ROW
  WHEN (OLD.hostname IS DISTINCT FROM NEW.hostname) EXECUTE FUNCTION organization_hostname_changed();
--> statement-breakpoint
-- An integration whose scopes or content security policy change, or which gets or loses its script: a new
-- stamp for the sites of every organization it is installed in.
CREATE FUNCTION integration_sites_served_changed(p_integration_name text) RETURNS void LANGUAGE sql AS $$
  UPDATE sites SET served_stamp = gen_random_uuid()::text
   WHERE organization_id IN (SELECT inst.organization_id FROM integration_installations inst WHERE inst.integration_name = p_integration_name)
$$;
--> statement-breakpoint
CREATE FUNCTION integration_served_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM integration_sites_served_changed(NEW.name);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER integrations_served_stamp AFTER UPDATE ON integrations FOR EACH ROW
  WHEN (OLD.scopes IS DISTINCT FROM NEW.scopes OR OLD.content_security_policy IS DISTINCT FROM NEW.content_security_policy)
  EXECUTE FUNCTION integration_served_changed();
--> statement-breakpoint
CREATE FUNCTION integration_script_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM integration_sites_served_changed(OLD.integration_name);
  ELSE
    PERFORM integration_sites_served_changed(NEW.integration_name);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER integration_scripts_served_stamp AFTER INSERT OR DELETE ON integration_scripts FOR EACH ROW EXECUTE FUNCTION integration_script_changed();
