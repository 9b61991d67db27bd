// The knowledge tables (files, pages, chunks with their pgvector column) are declared here.
export {};
