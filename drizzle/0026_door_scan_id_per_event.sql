DROP INDEX "door_scans_scan_id_key";--> statement-breakpoint
CREATE UNIQUE INDEX "door_scans_event_scan_id_key" ON "door_scans" USING btree ("event_id","scan_id");