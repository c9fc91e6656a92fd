CREATE TABLE "component_access" (
	"component_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"permission" text DEFAULT 'read' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "component_access_component_id_project_id_pk" PRIMARY KEY("component_id","project_id")
);
--> statement-breakpoint
CREATE TABLE "components" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"description" text NOT NULL,
	"cloud_provider" text NOT NULL,
	"infrastructure_as_code_tool" text NOT NULL,
	"pipeline_id" uuid,
	"artifact_step" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"vendor_dir" text,
	"vendor_hash" text,
	"vendor_schema" text,
	"vendor_readme" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "components_project_name_key" UNIQUE NULLS NOT DISTINCT("project_id","name")
);
--> statement-breakpoint
ALTER TABLE "component_access" ADD CONSTRAINT "component_access_component_id_components_id_fk" FOREIGN KEY ("component_id") REFERENCES "public"."components"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "component_access" ADD CONSTRAINT "component_access_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "components" ADD CONSTRAINT "components_pipeline_id_pipelines_id_fk" FOREIGN KEY ("pipeline_id") REFERENCES "public"."pipelines"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "component_access_project_idx" ON "component_access" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "components_pipeline_idx" ON "components" USING btree ("pipeline_id");