#include "tools/simulator/template.h"

#include <gtest/gtest.h>

#include <string>

namespace partstore::sim {
namespace {

Template MustParseTemplate(std::string_view text) {
  Result<Template> parsed = Template::Parse(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
  return parsed.ok() ? *parsed : Template();
}

// The error message of parsing `text` ("OK" when it parses).
std::string ParseError(std::string_view text) {
  Result<Template> parsed = Template::Parse(text);
  if (parsed.ok()) return "OK";
  EXPECT_EQ(parsed.error().code(), Code::kValidation);
  return std::string(parsed.error().message());
}

TEST(TemplateTest, LiteralOnly) {
  const Template t = MustParseTemplate("META");
  EXPECT_EQ(t.text(), "META");
  EXPECT_FALSE(t.empty());
  EXPECT_EQ(t.Expand({.key = 5}), "META");
  EXPECT_FALSE(t.uses(Template::Field::kKey));
}

TEST(TemplateTest, EmptyTemplate) {
  const Template t = MustParseTemplate("");
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(t.Expand({.key = 5}), "");
  EXPECT_TRUE(Template().empty());
}

TEST(TemplateTest, ExpandsEveryPlaceholder) {
  const Template t = MustParseTemplate("P#{key}#I#{item}#S#{seq}#T#{time}");
  EXPECT_EQ(t.Expand({.key = 42, .item = 7, .seq = 1234, .time_millis = 1500}),
            "P#42#I#7#S#1234#T#000000001500");
  EXPECT_TRUE(t.uses(Template::Field::kKey));
  EXPECT_TRUE(t.uses(Template::Field::kItem));
  EXPECT_TRUE(t.uses(Template::Field::kSeq));
  EXPECT_TRUE(t.uses(Template::Field::kTime));
  EXPECT_TRUE(t.uses(Template::Field::kLiteral));
}

TEST(TemplateTest, UsesOnlyWhatItNames) {
  const Template t = MustParseTemplate("{key}");
  EXPECT_TRUE(t.uses(Template::Field::kKey));
  EXPECT_FALSE(t.uses(Template::Field::kItem));
  EXPECT_FALSE(t.uses(Template::Field::kSeq));
  EXPECT_FALSE(t.uses(Template::Field::kTime));
  EXPECT_FALSE(t.uses(Template::Field::kLiteral));
  EXPECT_EQ(t.Expand({.key = 0}), "0");
}

TEST(TemplateTest, WidthsZeroPad) {
  EXPECT_EQ(MustParseTemplate("{key:06}").Expand({.key = 42}), "000042");
  EXPECT_EQ(MustParseTemplate("{item:03}").Expand({.item = 5}), "005");
  EXPECT_EQ(MustParseTemplate("{seq:08}").Expand({.seq = 123}), "00000123");
  EXPECT_EQ(MustParseTemplate("{key:01}").Expand({.key = 0}), "0");
  // A width never truncates.
  EXPECT_EQ(MustParseTemplate("{key:02}").Expand({.key = 12345}), "12345");
  EXPECT_EQ(MustParseTemplate("{key:020}").Expand({.key = 1}), std::string(19, '0') + "1");
}

TEST(TemplateTest, TimeDefaultsToTwelveDigits) {
  EXPECT_EQ(MustParseTemplate("{time}").Expand({.time_millis = 0}), "000000000000");
  EXPECT_EQ(MustParseTemplate("{time}").Expand({.time_millis = 86'400'000}), "000086400000");
  EXPECT_EQ(MustParseTemplate("{time:04}").Expand({.time_millis = 12}), "0012");
}

TEST(TemplateTest, DoubledBracesAreLiterals) {
  EXPECT_EQ(MustParseTemplate("{{key}}").Expand({.key = 3}), "{key}");
  EXPECT_EQ(MustParseTemplate("a{{{key}}}b").Expand({.key = 7}), "a{7}b");
  EXPECT_EQ(MustParseTemplate("}}{{").Expand({}), "}{");
  EXPECT_FALSE(MustParseTemplate("{{key}}").uses(Template::Field::kKey));
}

TEST(TemplateTest, ExpandAppends) {
  const Template t = MustParseTemplate("#{key}");
  std::string out = "USER";
  t.Expand({.key = 9}, out);
  t.Expand({.key = 10}, out);
  EXPECT_EQ(out, "USER#9#10");
}

TEST(TemplateTest, KeepsItsText) {
  EXPECT_EQ(MustParseTemplate("ORDER#{seq:08}").text(), "ORDER#{seq:08}");
}

TEST(TemplateTest, UnknownPlaceholder) {
  const std::string error = ParseError("USER#{id}");
  EXPECT_NE(error.find("unknown placeholder {id}"), std::string::npos) << error;
  EXPECT_NE(error.find("USER#{id}"), std::string::npos) << error;
  EXPECT_NE(ParseError("{}").find("unknown placeholder {}"), std::string::npos);
  EXPECT_NE(ParseError("{KEY}").find("unknown placeholder"), std::string::npos);
}

TEST(TemplateTest, UnbalancedBraces) {
  EXPECT_NE(ParseError("USER#{key").find("unclosed '{'"), std::string::npos);
  EXPECT_NE(ParseError("USER#key}").find("unmatched '}'"), std::string::npos);
  EXPECT_NE(ParseError("{key}}").find("unmatched '}'"), std::string::npos);
}

TEST(TemplateTest, BadWidths) {
  for (std::string_view text : {"{key:6}", "{key:0}", "{key:00}", "{key:021}", "{key:}",
                                "{key:06x}", "{key:-1}", "{time:abc}", "{key:0 6}"}) {
    const std::string error = ParseError(text);
    EXPECT_NE(error.find("bad width"), std::string::npos) << text << " -> " << error;
  }
}

}  // namespace
}  // namespace partstore::sim
