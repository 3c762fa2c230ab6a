"""The card games scored by groups (the word cards of 衡阳六胡抢), as the rules layer knows them:
the rule set and what it is made of (`model`: `CardRuleSet`, groups, patterns, the scoring
steps' tally), how it is built from its YAML, with its sections' keys (`loader`, whose
`FAMILY` `app.rules.loader` registers), the checks of 名堂 (`checks`) and the scoring steps
(`steps`).
"""
