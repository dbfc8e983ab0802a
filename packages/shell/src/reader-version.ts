/** This reader's version (kept equal to package.json's by a test): copies of two versions never share a reading or a parse. */
export const readerVersion = "0.1.0";
