CREATE TABLE "knowledge_lexemes" (
	"workspace_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"chunks" integer NOT NULL,
	CONSTRAINT "knowledge_lexemes_workspace_id_lexeme_pk" PRIMARY KEY("workspace_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "knowledge_lexemes" ADD CONSTRAINT "knowledge_lexemes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A short pending list: the embedded database never vacuums, so the list (up to 4 MB) was read by
-- every search and priced the index out of the planner's choice. The list is merged now.
ALTER INDEX "document_chunks_search_idx" SET (gin_pending_list_limit = 256);--> statement-breakpoint
SELECT gin_clean_pending_list('document_chunks_search_idx');--> statement-breakpoint
-- The counts follow every insert and delete of chunks (a document deleted, refreshed or failed; a
-- workspace deleted), once per statement. Chunk text is never updated in place: a document's chunks
-- are replaced. Writers of one workspace's counts take turns (a transaction lock per workspace):
-- two documents written at once would otherwise lock the same words in different orders.
CREATE FUNCTION "knowledge_lexemes_add"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(hashtextextended('knowledge_lexemes ' || workspace_id::text, 0))
	FROM (SELECT DISTINCT workspace_id FROM added ORDER BY workspace_id) AS w;
	INSERT INTO knowledge_lexemes (workspace_id, lexeme, chunks)
	SELECT workspace_id, lexeme, count(*) FROM added, unnest(tsvector_to_array(search_vector)) AS lexeme
	GROUP BY workspace_id, lexeme ORDER BY workspace_id, lexeme
	ON CONFLICT (workspace_id, lexeme) DO UPDATE SET chunks = knowledge_lexemes.chunks + excluded.chunks;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION "knowledge_lexemes_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_advisory_xact_lock(hashtextextended('knowledge_lexemes ' || workspace_id::text, 0))
	FROM (SELECT DISTINCT workspace_id FROM removed ORDER BY workspace_id) AS w;
	UPDATE knowledge_lexemes AS k SET chunks = k.chunks - r.chunks
	FROM (
		SELECT workspace_id, lexeme, count(*) AS chunks FROM removed, unnest(tsvector_to_array(search_vector)) AS lexeme
		GROUP BY workspace_id, lexeme
	) AS r
	WHERE k.workspace_id = r.workspace_id AND k.lexeme = r.lexeme;
	DELETE FROM knowledge_lexemes AS k
	USING (SELECT DISTINCT workspace_id, lexeme FROM removed, unnest(tsvector_to_array(search_vector)) AS lexeme) AS r
	WHERE k.workspace_id = r.workspace_id AND k.lexeme = r.lexeme AND k.chunks <= 0;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "document_chunks_lexemes_added" AFTER INSERT ON "document_chunks"
	REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION knowledge_lexemes_add();--> statement-breakpoint
CREATE TRIGGER "document_chunks_lexemes_removed" AFTER DELETE ON "document_chunks"
	REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION knowledge_lexemes_remove();--> statement-breakpoint
INSERT INTO "knowledge_lexemes" (workspace_id, lexeme, chunks)
SELECT workspace_id, lexeme, count(*) FROM document_chunks, unnest(tsvector_to_array(search_vector)) AS lexeme
GROUP BY workspace_id, lexeme;
