"""Sharing a collection read-only with named users, and pooling it with a playgroup."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from cardsite.catalogue.models import Card
from cardsite.collection.models import CollectionCard, CollectionShare, Pool, PoolMember
from cardsite.collection.selectors import can_read_collection, owned_counts
from cardsite.collection.services.pools import (
    INVITATION_DAYS,
    MAX_INVITATIONS_OUT,
    MAX_POOL_MEMBERS,
    POOL_NAME_MAX,
    invitations_expire,
    pool_accept,
    pool_create,
    pool_decline,
    pool_decline_all,
    pool_invite,
    pool_leave,
)
from cardsite.collection.services.sharing import (
    MAX_SHARES,
    collection_share,
    collection_unshare,
)
from cardsite.collection.sharing_selectors import MAX_INVITATIONS_SHOWN, invited_pool, pool_state
from engines.errors import InputError
from tests.documentation import docs_text

pytestmark = pytest.mark.django_db


def user(name: str) -> User:
    return User.objects.create_user(name, password="x-Long-pass-9")


@pytest.fixture
def ann():
    return user("ann")


@pytest.fixture
def bob():
    return user("bob")


def test_a_share_lets_the_reader_read_and_nobody_else(ann, bob):
    carl = user("carl")
    collection_share(owner=ann, reader_username="bob")
    assert can_read_collection(owner=ann, viewer=bob)
    assert not can_read_collection(owner=ann, viewer=carl)
    assert not can_read_collection(owner=bob, viewer=ann)


def test_a_share_finds_the_reader_regardless_of_case_and_width(ann, bob):
    share = collection_share(owner=ann, reader_username=" \uff22\uff2f\uff22 ")  # fullwidth BOB
    assert share.reader == bob


def test_sharing_twice_with_the_same_reader_makes_one_share(ann, bob):
    collection_share(owner=ann, reader_username="bob")
    collection_share(owner=ann, reader_username="Bob")
    assert CollectionShare.objects.filter(owner=ann).count() == 1


@pytest.mark.parametrize("name", ["nobody", "", "   ", "x" * 151])
def test_sharing_with_no_such_user_names_the_username(ann, name):
    with pytest.raises(InputError) as error:
        collection_share(owner=ann, reader_username=name)
    assert error.value.field == "username"
    assert not CollectionShare.objects.exists()


def test_a_collection_cannot_be_shared_with_its_owner(ann):
    with pytest.raises(InputError, match="yours"):
        collection_share(owner=ann, reader_username="ann")


def test_an_inactive_user_is_no_such_user(ann, bob):
    User.objects.filter(pk=bob.pk).update(is_active=False)
    with pytest.raises(InputError, match="no user"):
        collection_share(owner=ann, reader_username="bob")


def test_a_collection_is_shared_with_at_most_the_limit(ann):
    readers = User.objects.bulk_create(User(username=f"r{n}") for n in range(MAX_SHARES + 1))
    for reader in readers[:MAX_SHARES]:
        collection_share(owner=ann, reader_username=reader.username)
    with pytest.raises(InputError, match=str(MAX_SHARES)):
        collection_share(owner=ann, reader_username=readers[-1].username)
    assert CollectionShare.objects.filter(owner=ann).count() == MAX_SHARES
    # Sharing again with a reader already there is not a new share, so never refused.
    collection_share(owner=ann, reader_username=readers[0].username)


def test_unsharing_stops_the_reader_at_once(ann, bob):
    collection_share(owner=ann, reader_username="bob")
    assert collection_unshare(owner=ann, reader=bob)
    assert not can_read_collection(owner=ann, viewer=bob)
    assert not collection_unshare(owner=ann, reader=bob)


def test_a_new_pool_has_its_maker_as_its_one_member(ann):
    pool = pool_create(user=ann, name="  Tuesday   night ")
    assert pool.name == "Tuesday night"
    assert list(pool.members.values_list("user__username", flat=True)) == ["ann"]
    assert pool.members.get().accepted_at is not None


@pytest.mark.parametrize("name", ["", "   ", "x" * 81])
def test_a_pool_needs_a_name_within_the_limit(ann, name):
    with pytest.raises(InputError) as error:
        pool_create(user=ann, name=name)
    assert error.value.field == "name"
    assert not Pool.objects.exists()


def test_a_member_of_a_pool_cannot_make_another(ann):
    pool_create(user=ann, name="One")
    with pytest.raises(InputError, match="leave it first"):
        pool_create(user=ann, name="Two")
    assert Pool.objects.count() == 1


def test_an_invitation_counts_for_nothing_until_accepted(ann, bob):
    card = Card.objects.filter(card_set__code="ORI-RB").first()
    CollectionCard.objects.create(owner=bob, card=card, quantity=3)
    CollectionCard.objects.create(owner=ann, card=card, quantity=1)
    pool = pool_create(user=ann, name="Club")
    pool_invite(pool=pool, by=ann, username="bob")
    assert owned_counts(user=ann) == {card.pk: 1}
    assert not can_read_collection(owner=bob, viewer=ann)
    pool_accept(user=bob, pool=pool)
    assert owned_counts(user=ann) == {card.pk: 4}
    assert owned_counts(user=bob) == {card.pk: 4}
    assert can_read_collection(owner=bob, viewer=ann)
    assert can_read_collection(owner=ann, viewer=bob)


def test_only_members_may_invite(ann, bob):
    pool = pool_create(user=ann, name="Club")
    carl = user("carl")
    pool_invite(pool=pool, by=ann, username="bob")
    with pytest.raises(InputError) as error:
        pool_invite(pool=pool, by=bob, username="carl")  # invited, not yet a member
    assert error.value.field == "pool"
    with pytest.raises(InputError):
        pool_invite(pool=pool, by=carl, username="carl")


def test_inviting_oneself_or_nobody_is_refused(ann):
    pool = pool_create(user=ann, name="Club")
    for name in ("ann", "nobody"):
        with pytest.raises(InputError) as error:
            pool_invite(pool=pool, by=ann, username=name)
        assert error.value.field == "username"


def test_a_pool_holds_at_most_the_limit_with_its_invitations(ann):
    pool = pool_create(user=ann, name="Club")
    others = User.objects.bulk_create(User(username=f"p{n}") for n in range(MAX_POOL_MEMBERS))
    for other in others[: MAX_POOL_MEMBERS - 1]:
        pool_invite(pool=pool, by=ann, username=other.username)
    with pytest.raises(InputError, match=str(MAX_POOL_MEMBERS)):
        pool_invite(pool=pool, by=ann, username=others[-1].username)
    assert pool.members.count() == MAX_POOL_MEMBERS


def strangers_invite(invitee: str, count: int) -> list[Pool]:
    makers = User.objects.bulk_create(User(username=f"m{n}") for n in range(count))
    pools = [pool_create(user=maker, name=f"Pool {maker.username}") for maker in makers]
    for maker, pool in zip(makers, pools, strict=True):
        pool_invite(pool=pool, by=maker, username=invitee)
    return pools


def test_invitations_from_strangers_never_keep_out_a_friends(ann, bob):
    strangers_invite("bob", 25)
    friends = pool_create(user=ann, name="Friends")
    pool_invite(pool=friends, by=ann, username="bob")
    pool_accept(user=bob, pool=friends)
    assert friends.members.filter(accepted_at__isnull=False).count() == 2


def test_a_sender_has_at_most_the_limit_of_invitations_waiting(ann, bob):
    invitees = User.objects.bulk_create(User(username=f"i{n}") for n in range(MAX_INVITATIONS_OUT))
    left = pool_create(user=ann, name="Left")
    for invitee in invitees[: MAX_POOL_MEMBERS - 1]:
        pool_invite(pool=left, by=ann, username=invitee.username)
    # Someone stays, so ann's invitations from it wait on after she leaves, and still count.
    PoolMember.objects.create(pool=left, user=user("cy"), accepted_at=timezone.now())
    pool_leave(user=ann)
    current = pool_create(user=ann, name="Current")
    for invitee in invitees[MAX_POOL_MEMBERS - 1 :]:
        pool_invite(pool=current, by=ann, username=invitee.username)
    with pytest.raises(InputError, match=f"{MAX_INVITATIONS_OUT} invitations waiting"):
        pool_invite(pool=current, by=ann, username="bob")
    assert not PoolMember.objects.filter(user=bob).exists()


def test_a_sender_has_one_invitation_at_a_time_waiting_for_a_user(ann, bob):
    first = pool_create(user=ann, name="First")
    pool_invite(pool=first, by=ann, username="bob")
    PoolMember.objects.create(pool=first, user=user("cy"), accepted_at=timezone.now())
    pool_leave(user=ann)
    second = pool_create(user=ann, name="Second")
    with pytest.raises(InputError, match="invited that user already"):
        pool_invite(pool=second, by=ann, username="bob")
    assert PoolMember.objects.filter(user=bob).count() == 1


def age(member: PoolMember, days: int) -> None:
    PoolMember.objects.filter(pk=member.pk).update(invited_at=timezone.now() - timedelta(days=days))


def test_an_invitation_expires_unanswered_and_then_counts_for_nothing(ann, bob):
    pool = pool_create(user=ann, name="Club")
    invitation = pool_invite(pool=pool, by=ann, username="bob")
    age(invitation, INVITATION_DAYS - 1)
    assert [i.pk for i in pool_state(user=bob).invitations] == [invitation.pk]
    age(invitation, INVITATION_DAYS + 1)
    state = pool_state(user=bob)
    assert (state.invitations, state.invitations_waiting) == ([], 0)
    assert [m.user for m in pool_state(user=ann).members] == [ann]
    assert invited_pool(user=bob, pool_id=pool.pk) is None
    with pytest.raises(InputError, match="no invitation"):
        pool_accept(user=bob, pool=pool)


def test_expired_invitations_are_deleted_and_free_their_places(ann, bob):
    pool = pool_create(user=ann, name="Club")
    others = User.objects.bulk_create(User(username=f"p{n}") for n in range(MAX_POOL_MEMBERS))
    for other in others[: MAX_POOL_MEMBERS - 1]:
        age(pool_invite(pool=pool, by=ann, username=other.username), INVITATION_DAYS + 1)
    pool_invite(pool=pool, by=ann, username="bob")  # the expired ones no longer fill the pool
    assert pool.members.count() == 2
    age(PoolMember.objects.get(user=bob), INVITATION_DAYS + 1)
    assert invitations_expire() == 1
    assert list(PoolMember.objects.values_list("user__username", flat=True)) == ["ann"]


def test_declining_all_removes_every_invitation_and_no_membership(ann, bob):
    pools = strangers_invite("bob", 3)
    mine = pool_create(user=bob, name="Mine")
    assert pool_decline_all(user=bob) == 3
    assert not PoolMember.objects.filter(user=bob, accepted_at__isnull=True).exists()
    assert PoolMember.objects.filter(user=bob, pool=mine).exists()
    assert all(p.members.count() == 1 for p in pools)
    assert pool_decline_all(user=bob) == 0


def test_the_invitations_listed_are_the_newest_and_the_count_says_how_many_wait(bob):
    pools = strangers_invite("bob", MAX_INVITATIONS_SHOWN + 2)
    for n, member in enumerate(PoolMember.objects.filter(user=bob).order_by("pk")):
        earlier = timezone.now() - timedelta(minutes=len(pools) - n)  # the last made is newest
        PoolMember.objects.filter(pk=member.pk).update(invited_at=earlier)
    state = pool_state(user=bob)
    assert state.invitations_waiting == MAX_INVITATIONS_SHOWN + 2
    assert len(state.invitations) == MAX_INVITATIONS_SHOWN
    assert state.invitations[0].pool == pools[-1]


def test_accepting_while_in_another_pool_is_refused_until_leaving(ann, bob):
    first = pool_create(user=ann, name="First")
    second = pool_create(user=bob, name="Second")
    pool_invite(pool=first, by=ann, username="bob")
    with pytest.raises(InputError, match="leave it first"):
        pool_accept(user=bob, pool=first)
    assert pool_leave(user=bob)
    assert not Pool.objects.filter(pk=second.pk).exists()  # its last member left
    pool_accept(user=bob, pool=first)
    assert set(first.members.values_list("user__username", flat=True)) == {"ann", "bob"}


def test_accepting_without_an_invitation_names_the_pool(ann, bob):
    pool = pool_create(user=ann, name="Club")
    with pytest.raises(InputError) as error:
        pool_accept(user=bob, pool=pool)
    assert error.value.field == "pool"
    assert not PoolMember.objects.filter(user=bob).exists()


def test_declining_removes_the_invitation_and_nothing_else(ann, bob):
    pool = pool_create(user=ann, name="Club")
    pool_invite(pool=pool, by=ann, username="bob")
    assert pool_decline(user=bob, pool=pool)
    assert not pool_decline(user=bob, pool=pool)
    assert not pool_decline(user=ann, pool=pool)  # a member declines nothing: they leave
    assert list(pool.members.values_list("user__username", flat=True)) == ["ann"]


def test_leaving_stops_the_pooled_copies_counting_at_once(ann, bob):
    card = Card.objects.filter(card_set__code="ORI-RB").first()
    CollectionCard.objects.create(owner=bob, card=card, quantity=2)
    pool = pool_create(user=ann, name="Club")
    pool_invite(pool=pool, by=ann, username="bob")
    pool_accept(user=bob, pool=pool)
    assert owned_counts(user=ann) == {card.pk: 2}
    pool_leave(user=bob)
    assert owned_counts(user=ann) == {}
    assert not can_read_collection(owner=bob, viewer=ann)
    assert Pool.objects.filter(pk=pool.pk).exists()  # ann is still in it


def test_the_last_member_leaving_deletes_the_pool_and_its_invitations(ann, bob):
    pool = pool_create(user=ann, name="Club")
    pool_invite(pool=pool, by=ann, username="bob")
    assert pool_leave(user=ann)
    assert not Pool.objects.exists()
    assert not PoolMember.objects.exists()
    assert not pool_leave(user=ann)


def test_the_readme_limits_table_states_the_sharing_and_pool_limits():
    readme = docs_text()
    start = readme.index("### Limits")
    table = readme[start : readme.index("\n### ", start + 1)]
    sharing = next(line for line in table.splitlines() if line.startswith("| collection readers"))
    pools = next(line for line in table.splitlines() if line.startswith("| a pool ("))
    assert f"**{MAX_SHARES}** users" in sharing and "`MAX_SHARES`" in sharing
    assert f"**{MAX_POOL_MEMBERS}** members" in pools
    assert f"**{MAX_INVITATIONS_OUT}** invitations waiting" in pools
    assert f"**{INVITATION_DAYS}** days" in pools
    assert f"1 to {POOL_NAME_MAX} characters" in pools


def test_manage_py_purge_invitations_deletes_the_expired_ones(ann, bob):
    age(pool_invite(pool=pool_create(user=ann, name="Club"), by=ann, username="bob"), 15)
    call_command("purge_invitations", stdout=StringIO())
    assert not PoolMember.objects.filter(user=bob).exists()
