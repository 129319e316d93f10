// The report's pieces that lit tests reach only through whole files: HTML
// escaping of bytes that are not text, the coverage counters, and where the
// HTML page puts remarks (at their PTX line, on a clone, of other kernels).
#include "Helpers.h"

#include "ptxopt/analysis/HtmlReport.h"
#include "ptxopt/analysis/Report.h"

using namespace ptxopt;
using namespace ptxopt::analysis;

TEST_CASE("htmlEscape: markup characters, control bytes and invalid UTF-8", "[report]") {
  const std::string fffd = "\xEF\xBF\xBD";
  CHECK(htmlEscape("a<b>&\"'c") == "a&lt;b&gt;&amp;&quot;&#39;c");
  CHECK(htmlEscape("tab\there\nline") == "tab\there\nline");
  CHECK(htmlEscape(std::string("x\x01y\x7fz", 5)) == "x" + fffd + "y" + fffd + "z");
  CHECK(htmlEscape(std::string("nul\0", 4)) == "nul" + fffd);
  CHECK(htmlEscape("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  CHECK(htmlEscape("\xC3(") == fffd + "(");                    // lead byte without continuation
  CHECK(htmlEscape("\xC0\xAF") == fffd + fffd);                // overlong
  CHECK(htmlEscape("\xED\xA0\x80") == fffd + fffd + fffd);     // UTF-16 surrogate
  CHECK(htmlEscape("\xE2\x82") == fffd + fffd);                // cut short at the end
  CHECK(htmlEscape("\xF4\x90\x80\x80") == fffd + fffd + fffd + fffd);  // past U+10FFFF
}

TEST_CASE("Coverage: global and generic accesses by verdict, unknown ones by cause", "[report]") {
  auto access = [](std::string_view space, AccessInfo::Verdict v, UnknownCause c = UnknownCause::Other) {
    AccessInfo a;
    a.mem.space = space;
    a.verdict = v;
    a.cause = c;
    return a;
  };
  using V = AccessInfo::Verdict;
  Coverage k1, k2, total;
  k1.add(access(".global", V::Coalesced));
  k1.add(access("", V::Uncoalesced));  // generic: counted
  k1.add(access(".shared", V::Unknown, UnknownCause::DataDependent));  // not counted
  k1.add(access(".global", V::Unknown, UnknownCause::DataDependent));
  k2.add(access(".global", V::Unknown, UnknownCause::Call));
  k2.add(access(".global", V::Unknown, UnknownCause::DataDependent));
  k2.add(access(".global", V::Uniform));
  CHECK(k1.accesses == 3);
  CHECK(k1.otherSpaces == 1);
  CHECK(k1.verdictText() == "3 (1 coalesced, 0 uniform, 1 uncoalesced, 1 unknown)");
  CHECK(k1.causeText() == "1 data-dependent");
  total.add(k1);
  total.add(k2);
  CHECK(total.verdictText() == "6 (1 coalesced, 1 uniform, 1 uncoalesced, 3 unknown)");
  CHECK(total.causeText() == "2 data-dependent, 1 call");
  CHECK(Coverage{}.causeText().empty());
}

TEST_CASE("HTML report: remarks at their PTX line, on clones, escaped; others' remarks left out", "[report]") {
  // Line numbers of the module below: 1-3 header, 4 .entry, 5 {, 6 .reg,
  // 7 mov, 8 ld.param, 9 cvta, 10 mul.wide, 11 add, 12 st.global, 13 ret.
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
                   "mov.u32 %r1, %tid.x;\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
                   "mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd2, %rd3;\nst.global.u32 [%rd4], %r1;\nret;\n}\n");
  AnalysisManager am(*m);
  HtmlReportOptions opts;
  opts.pipeline = "-O2";
  opts.remarks = {{"missed", "coalesce", "k", "test.ptx:13:1", "not <b>done</b> & why"},
                  {"applied", "group", "k__ptxopt_swap", "", "a clone's remark"},
                  {"missed", "group", "other", "test.ptx:13:1", "another kernel's remark"}};
  std::string page = reportHtml(*m, am, opts);
  // No readable source: the PTX lines, the store uncoalesced (stride 8 > 4 bytes).
  CHECK(page.find("<div class=\"viewhead\">PTX <span class=\"path\">test.ptx</span></div>") != std::string::npos);
  size_t store = page.find("<tr class=\"l-uncoalesced\" id=\"k0-ptx-13\"><td class=\"n\">13</td>");
  REQUIRE(store != std::string::npos);
  size_t remark = page.find("not &lt;b&gt;done&lt;/b&gt; &amp; why");
  CHECK(remark > store);
  CHECK(page.find("<b>done</b>") == std::string::npos);
  // A remark on a clone, with no location: at the kernel, naming the clone.
  size_t clone = page.find("a clone&#39;s remark <span class=\"muted\">(on k__ptxopt_swap)</span>");
  CHECK(clone != std::string::npos);
  CHECK(clone < store);
  CHECK(page.find("another kernel") == std::string::npos);
  // Deterministic.
  CHECK(reportHtml(*m, am, opts) == page);
}
