ALTER TABLE "organizations" ADD COLUMN "pass_background_color" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "pass_text_color" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venue_latitude" double precision;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "venue_longitude" double precision;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_pass_colors_check" CHECK (("organizations"."pass_background_color" is null) = ("organizations"."pass_text_color" is null));--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_venue_coordinates_check" CHECK (("events"."venue_latitude" is null) = ("events"."venue_longitude" is null) and ("events"."venue_latitude" is null or ("events"."venue_latitude" between -90 and 90 and "events"."venue_longitude" between -180 and 180)));