// POST /api/langgraph/threads/prune reads no input: it is not offered.
export {};
