ALTER TABLE "documents" ADD COLUMN "error_code" text;
