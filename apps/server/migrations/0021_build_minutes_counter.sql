CREATE TABLE "build_minutes" (
	"project_id" uuid NOT NULL,
	"month" timestamp with time zone NOT NULL,
	"ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "build_minutes_project_id_month_pk" PRIMARY KEY("project_id","month")
);
--> statement-breakpoint
ALTER TABLE "build_minutes" ADD CONSTRAINT "build_minutes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "build_minutes" ("project_id", "month", "ms")
SELECT "project_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', round(sum(extract(epoch from ("stop_date" - "start_date")) * 1000))::bigint
FROM "builds" WHERE "start_date" IS NOT NULL AND "stop_date" IS NOT NULL GROUP BY 1, 2;
