// Words as word processors count them: Chinese and Japanese characters one each (their text has no spaces
// between words), every other run of letters or digits one word. Markdown marks (`**`, `#`, `---`) are not words.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu;

export function countWords(text: string) {
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text.replace(CJK, " ").match(WORD)?.length ?? 0;
  return cjk + words;
}
