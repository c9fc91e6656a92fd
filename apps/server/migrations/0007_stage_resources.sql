CREATE TABLE "stage_resources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"name" text NOT NULL,
	"component_id" uuid NOT NULL,
	"component_version" text NOT NULL,
	"configurations" jsonb NOT NULL,
	"status" text DEFAULT 'NOT_DEPLOYED' NOT NULL,
	"is_deployed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stage_resources" ADD CONSTRAINT "stage_resources_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stage_resources_stage_name_key" ON "stage_resources" USING btree ("stage_id","name");--> statement-breakpoint
CREATE INDEX "stage_resources_component_idx" ON "stage_resources" USING btree ("component_id");