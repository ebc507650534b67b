// GET /api/langgraph/info takes no input: no params, query or body is read.
export {};
