// POST /api/langgraph/assistants reads no input: it is not offered (assistants are flows).
export {};
