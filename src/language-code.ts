/**
 * Tesseract's language codes: `eng`, `chi_sim`, `kor_vert`. config.json's `ocr.languages` is checked against it,
 * and the daemon resolves a pack's file only for a code that matches, so nothing else reaches a file path. A
 * module of its own because the recogniser threads need it without the configuration's schemas.
 */
export const LANGUAGE_CODE = /^[a-z]{3}(_[a-z]+)*$/;
