/** JUnit XML for CI systems: one testsuite, one testcase per check, failures with their messages. */

/** One test case: a failure message when it failed, null when it passed. */
export interface JunitCase {
  name: string;
  classname: string;
  failure: string | null;
}

/** xmlEscape escapes text for XML content and attribute values, dropping characters XML 1.0 forbids. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** junitXml writes a JUnit XML document with one testsuite named `suite` holding the cases in order. */
export function junitXml(suite: string, cases: readonly JunitCase[]): string {
  const failures = cases.filter((c) => c.failure !== null).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    const head = `    <testcase name="${xmlEscape(c.name)}" classname="${xmlEscape(c.classname)}"`;
    if (c.failure === null) lines.push(`${head}/>`);
    else lines.push(`${head}>`, `      <failure message="${xmlEscape(c.failure)}">${xmlEscape(c.failure)}</failure>`, '    </testcase>');
  }
  lines.push('  </testsuite>', '</testsuites>');
  return lines.join('\n') + '\n';
}
