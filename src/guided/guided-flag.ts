// The global flag that asks for the guided mode by name (declared with the program's options in main.ts): a leaf
// that both the check made on every line (entry.ts) and the guided mode itself (session.ts) name it from.
export const GUIDED_FLAG = '--guided';
