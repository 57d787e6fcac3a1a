"""game.blind.group: the group's numbers are the ones its documented derivation gives, they are
prime, G has order Q, and the 52 card elements are distinct members of the subgroup."""

from game.blind import group
from game.cards import DECK


def test_the_group_is_derived_from_its_seed_with_nothing_up_its_sleeve():
    q, p, g = group.derive()
    assert (q, p, g) == (group.Q, group.P, group.G)
    assert q.bit_length() == 256 and p.bit_length() == 2048 and (p - 1) % q == 0
    assert group.is_probable_prime(q) and group.is_probable_prime(p)
    assert g != 1 and pow(g, q, p) == 1


def test_the_prime_test_refuses_composites_that_fool_fermat():
    carmichael = [561, 1105, 1729, 2465, 2821, 6601, 8911, 41041, 825265, 321197185]
    strong_pseudoprime_to_2 = 3215031751                    # 151 * 751 * 28351
    assert not any(group.is_probable_prime(n) for n in carmichael + [strong_pseudoprime_to_2])
    assert not group.is_probable_prime(group.P * group.Q)


def test_the_shipped_card_elements_are_the_ones_their_derivation_gives():
    """game/blind/elements.py (written by scripts/gen_card_elements.py) holds exactly what
    derive_element computes, card by card (about 1 s)."""
    from game.blind.elements import ELEMENTS
    assert len(ELEMENTS) == len(DECK)
    for card, element in zip(DECK, ELEMENTS):
        assert group.derive_element(card) == element == group.card_element(card), card


def test_the_card_elements_are_distinct_members_of_the_subgroup():
    elements = [group.card_element(card) for card in DECK]
    assert len(set(elements)) == 52 and 1 not in elements
    assert all(group.in_group(x) for x in elements)
    assert [group.card_for(x) for x in elements] == list(DECK)
    assert group.card_for(group.G) is None


def test_the_fixed_base_and_the_multi_exponentiation_are_the_powers():
    import random

    from game.blind.alarms import finish
    rng = random.Random(39)
    for _ in range(20):
        k = rng.choice([0, 1, 2**32, 2**255, group.Q - 1, rng.randrange(group.Q)])
        assert group.g_power(k) == pow(group.G, k, group.P)
    for n in (0, 1, 2, 7, 40):
        pairs = [(pow(group.G, rng.randrange(group.Q), group.P), rng.choice([0, 1, 15, 16, 2**128 - 1, group.Q - 1,
                                                                              rng.randrange(group.Q)]))
                 for _ in range(n)]
        expected = 1
        for base, exponent in pairs:
            expected = expected * pow(base, exponent, group.P) % group.P
        assert finish(group.multi_power(pairs)) == expected
    x = rng.randrange(2, group.P)
    assert finish(group.power_in_steps(x, group.COFACTOR)) == pow(x, group.COFACTOR, group.P)


def test_a_product_of_powers_is_the_product_of_the_two_powers():
    import random
    rng = random.Random(38)
    for _ in range(30):
        g, h = (pow(group.G, rng.randrange(group.Q), group.P) for _ in range(2))
        a, b = (rng.choice([0, 1, 2, 3, group.Q, rng.randrange(group.Q)]) for _ in range(2))
        assert group.product_of_powers(g, a, h, b) == pow(g, a, group.P) * pow(h, b, group.P) % group.P
