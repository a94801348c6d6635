"""The seed article "Adjacency List pattern" (e-commerce, table EcommerceData) through boto3.

The items are the article's, attribute for attribute; its access patterns are the article's
`params` objects, passed to the Table resource as they are written (only TableName is the
resource's). Patterns 2 and 5 use the article's GSI1 and are expected to fail until partstore
has secondary indexes.
"""
from decimal import Decimal

import pytest
from boto3.dynamodb.conditions import Key
from botocore.exceptions import ClientError

from conftest import unique_name

ARTICLE_ITEMS = [
    {"PK": "USER#12345", "SK": "USER#12345", "Type": "User", "userId": "12345",
     "name": "John Doe", "email": "john@example.com", "userType": "customer",
     "GSI1PK": "USER", "GSI1SK": "2024-01-15T10:30:00Z"},
    {"PK": "USER#67890", "SK": "USER#67890", "Type": "User", "userId": "67890",
     "name": "TechStore Inc", "email": "contact@techstore.com", "userType": "seller",
     "GSI1PK": "USER", "GSI1SK": "2024-01-10T08:15:00Z"},
    {"PK": "PRODUCT#ABC123", "SK": "PRODUCT#ABC123", "Type": "Product", "productId": "ABC123",
     "name": "Wireless Headphones", "price": Decimal("199.99"),
     "description": "Premium wireless headphones", "sellerId": "67890",
     "GSI1PK": "PRODUCT", "GSI1SK": "2024-01-16T14:20:00Z"},
    {"PK": "CATEGORY#electronics", "SK": "CATEGORY#electronics", "Type": "Category",
     "categoryId": "electronics", "name": "Electronics",
     "description": "Electronic devices and accessories"},
    {"PK": "PRODUCT#ABC123", "SK": "CATEGORY#electronics", "Type": "ProductCategory",
     "productId": "ABC123", "categoryId": "electronics",
     "GSI1PK": "CATEGORY#electronics", "GSI1SK": "PRODUCT#ABC123"},
    {"PK": "ORDER#ORD001", "SK": "ORDER#ORD001", "Type": "Order", "orderId": "ORD001",
     "customerId": "12345", "total": Decimal("199.99"), "status": "shipped",
     "orderDate": "2024-01-20T12:00:00Z", "GSI1PK": "USER#12345",
     "GSI1SK": "ORDER#2024-01-20T12:00:00Z"},
    {"PK": "ORDER#ORD001", "SK": "PRODUCT#ABC123", "Type": "OrderItem", "orderId": "ORD001",
     "productId": "ABC123", "quantity": 1, "unitPrice": Decimal("199.99"),
     "totalPrice": Decimal("199.99"), "GSI1PK": "PRODUCT#ABC123", "GSI1SK": "ORDER#ORD001"},
    {"PK": "REVIEW#REV001", "SK": "REVIEW#REV001", "Type": "Review", "reviewId": "REV001",
     "customerId": "12345", "productId": "ABC123", "rating": 5,
     "comment": "Excellent sound quality!", "reviewDate": "2024-01-25T09:30:00Z",
     "CreatedAt": "2024-01-25T09:30:00Z"},
    {"PK": "USER#12345", "SK": "REVIEW#REV001", "Type": "UserReview", "customerId": "12345",
     "reviewId": "REV001", "GSI1PK": "REVIEW#REV001", "GSI1SK": "USER#12345",
     "CreatedAt": "2024-01-25T09:30:00Z"},
    {"PK": "PRODUCT#ABC123", "SK": "REVIEW#REV001", "Type": "ProductReview",
     "productId": "ABC123", "reviewId": "REV001", "rating": 5, "GSI1PK": "REVIEW#REV001",
     "GSI1SK": "PRODUCT#ABC123", "CreatedAt": "2024-01-25T09:30:00Z"},
    {"PK": "PRODUCT#ABC123", "SK": "TAG#wireless", "Type": "ProductTag", "productId": "ABC123",
     "tagName": "wireless", "GSI1PK": "TAG#wireless", "GSI1SK": "PRODUCT#ABC123",
     "CreatedAt": "2024-01-16T14:20:00Z"},
    {"PK": "CATEGORY#electronics", "SK": "CHILD#headphones", "Type": "CategoryChild",
     "parentCategoryId": "electronics", "childCategoryId": "headphones",
     "childName": "Headphones", "GSI1PK": "CATEGORY#headphones",
     "GSI1SK": "PARENT#electronics", "CreatedAt": "2024-01-01T00:00:00Z"},
    {"PK": "PRODUCT#ABC123", "SK": "PRICE#2024-01-20T10:00:00Z", "Type": "PriceHistory",
     "productId": "ABC123", "price": Decimal("199.99"), "timestamp": "2024-01-20T10:00:00Z"},
    # Relationship 5 "CustomerOrder" (PK USER#xxx, SK ORDER#xxx): the article names it and
    # queries it (pattern 8) without listing its attributes; these are the order's.
    {"PK": "USER#12345", "SK": "ORDER#ORD001", "Type": "CustomerOrder", "customerId": "12345",
     "orderId": "ORD001", "total": Decimal("199.99"), "status": "shipped",
     "orderDate": "2024-01-20T12:00:00Z"},
]


def by_key(pk, sk):
    return next(i for i in ARTICLE_ITEMS if i["PK"] == pk and i["SK"] == sk)


def create_ecommerce_table(dynamodb, name, gsi=False):
    kwargs = {}
    definitions = [{"AttributeName": "PK", "AttributeType": "S"},
                   {"AttributeName": "SK", "AttributeType": "S"}]
    if gsi:
        definitions += [{"AttributeName": "GSI1PK", "AttributeType": "S"},
                        {"AttributeName": "GSI1SK", "AttributeType": "S"}]
        kwargs["GlobalSecondaryIndexes"] = [{
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"},
                          {"AttributeName": "GSI1SK", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"}}]
    table = dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST", AttributeDefinitions=definitions,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"},
                   {"AttributeName": "SK", "KeyType": "RANGE"}], **kwargs)
    table.wait_until_exists()
    with table.batch_writer() as batch:
        for item in ARTICLE_ITEMS:
            batch.put_item(Item=item)
    return table


@pytest.fixture(scope="module")
def ecommerce(dynamodb):
    # One table per module run ("EcommerceData" plus a suffix: tests may run against a shared
    # server).
    table = create_ecommerce_table(dynamodb, unique_name("EcommerceData"))
    yield table
    table.delete()


def test_loaded(ecommerce):
    assert ecommerce.scan(Select="COUNT")["Count"] == len(ARTICLE_ITEMS)


def test_1_get_user_details(ecommerce):
    params = {"Key": {"PK": "USER#12345", "SK": "USER#12345"}}
    assert ecommerce.get_item(**params)["Item"] == by_key("USER#12345", "USER#12345")


def test_3_get_product_with_reviews(ecommerce):
    params = {"KeyConditionExpression": "PK = :pk",
              "ExpressionAttributeValues": {":pk": "PRODUCT#ABC123"}}
    items = ecommerce.query(**params)["Items"]
    # The product and all its relationships, in sort-key order.
    assert [i["SK"] for i in items] == ["CATEGORY#electronics", "PRICE#2024-01-20T10:00:00Z",
                                        "PRODUCT#ABC123", "REVIEW#REV001", "TAG#wireless"]
    assert items[2] == by_key("PRODUCT#ABC123", "PRODUCT#ABC123")
    assert items[2]["price"] == Decimal("199.99")


def test_4_get_recent_reviews_for_product(ecommerce):
    params = {"KeyConditionExpression": "PK = :pk AND begins_with(SK, :sk)",
              "ExpressionAttributeValues": {":pk": "PRODUCT#ABC123", ":sk": "REVIEW#"},
              "ScanIndexForward": False, "Limit": 10}
    response = ecommerce.query(**params)
    assert response["Items"] == [by_key("PRODUCT#ABC123", "REVIEW#REV001")]
    assert "LastEvaluatedKey" not in response


def test_6_get_order_with_all_items(ecommerce):
    params = {"KeyConditionExpression": "PK = :pk",
              "ExpressionAttributeValues": {":pk": "ORDER#ORD001"}}
    items = ecommerce.query(**params)["Items"]
    assert items == [by_key("ORDER#ORD001", "ORDER#ORD001"),
                     by_key("ORDER#ORD001", "PRODUCT#ABC123")]


def test_7_get_customers_reviews(ecommerce):
    customer_id = "12345"
    params = {"KeyConditionExpression": "PK = :pk AND begins_with(SK, :sk)",
              "ExpressionAttributeValues": {":pk": f"USER#{customer_id}", ":sk": "REVIEW#"}}
    assert ecommerce.query(**params)["Items"] == [by_key("USER#12345", "REVIEW#REV001")]


def test_8_get_customers_orders_alternative(ecommerce):
    user_id = "12345"
    params = {"KeyConditionExpression": Key("PK").eq(f"USER#{user_id}") &
              Key("SK").begins_with("ORDER#")}
    assert ecommerce.query(**params)["Items"] == [by_key("USER#12345", "ORDER#ORD001")]


def test_sign_up_is_conditional(ecommerce):
    client = ecommerce.meta.client
    with pytest.raises(client.exceptions.ConditionalCheckFailedException):
        ecommerce.put_item(Item={"PK": "USER#12345", "SK": "USER#12345", "name": "Impostor"},
                           ConditionExpression="attribute_not_exists(PK)")
    assert ecommerce.get_item(Key={"PK": "USER#12345", "SK": "USER#12345"})["Item"]["name"] \
        == "John Doe"


def test_2_and_5_through_gsi1(dynamodb):
    table = create_ecommerce_table(dynamodb, unique_name("EcommerceGSI"), gsi=True)
    try:
        # 2. Get user's orders (with order details)
        orders = table.query(IndexName="GSI1",
                             KeyConditionExpression="GSI1PK = :pk AND begins_with(GSI1SK, :sk)",
                             ExpressionAttributeValues={":pk": "USER#12345", ":sk": "ORDER#"})
        assert orders["Items"] == [by_key("ORDER#ORD001", "ORDER#ORD001")]
        # 5. Get products in category
        products = table.query(IndexName="GSI1",
                               KeyConditionExpression="GSI1PK = :pk AND begins_with(GSI1SK, :sk)",
                               ExpressionAttributeValues={":pk": "CATEGORY#electronics",
                                                          ":sk": "PRODUCT#"})
        assert products["Items"] == [by_key("PRODUCT#ABC123", "CATEGORY#electronics")]
    finally:
        table.delete()
