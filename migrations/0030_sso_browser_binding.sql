-- Sign-ins under way when this runs started without an attempt cookie and could not complete
-- now (they would have expired within ten minutes anyway): dropped, so the new columns can be
-- NOT NULL.
DELETE FROM "oidc_logins";--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD COLUMN "browser_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_logins" ADD COLUMN "address" text NOT NULL;--> statement-breakpoint
CREATE INDEX "oidc_logins_address_idx" ON "oidc_logins" USING btree ("address");