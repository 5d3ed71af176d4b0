ALTER TABLE "privacy_settings" ADD COLUMN "pii_redaction" text DEFAULT 'off' NOT NULL;
