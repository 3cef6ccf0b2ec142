//go:build ignore

// Command awssigner writes an allocation profile of S3-like PUT operations
// sent through aws-sdk-go-v2's own middleware stack: a serialize step sets a
// 4 KiB body, the finalize step runs ComputePayloadSHA256 (which hashes the
// body into a fresh sha256.New() through io.Copy) and then signs the request
// with the v4 signer, and a fake HTTP client answers 200. This is the path
// every operation with a seekable body takes; only the network is missing.
//
// The corpus runner copies it into the root of the module's copy and runs
// it there: go run hashalloc_profile.go PROFILE.
package main

import (
	"bytes"
	"context"
	"io"
	"log"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

func main() {
	runtime.MemProfileRate = 1 // every allocation: the shares are exact
	body := bytes.Repeat([]byte("hashalloc"), 4096/9)
	signer := v4.NewSigner()
	creds := aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}

	stack := middleware.NewStack("PutObject", smithyhttp.NewStackRequest)
	must(stack.Serialize.Add(middleware.SerializeMiddlewareFunc("Body", func(ctx context.Context, in middleware.SerializeInput, next middleware.SerializeHandler) (middleware.SerializeOutput, middleware.Metadata, error) {
		req := in.Request.(*smithyhttp.Request)
		req.Method = http.MethodPut
		req.URL.Scheme, req.URL.Host, req.URL.Path = "https", "bucket.s3.us-east-1.amazonaws.com", "/object"
		var err error
		if in.Request, err = req.SetStream(bytes.NewReader(body)); err != nil {
			return middleware.SerializeOutput{}, middleware.Metadata{}, err
		}
		return next.HandleSerialize(ctx, in)
	}), middleware.After))
	must(stack.Finalize.Add(&v4.ComputePayloadSHA256{}, middleware.After))
	must(stack.Finalize.Add(middleware.FinalizeMiddlewareFunc("Sign", func(ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler) (middleware.FinalizeOutput, middleware.Metadata, error) {
		req := in.Request.(*smithyhttp.Request)
		if err := signer.SignHTTP(ctx, creds, req.Request, v4.GetPayloadHash(ctx), "s3", "us-east-1", time.Now()); err != nil {
			return middleware.FinalizeOutput{}, middleware.Metadata{}, err
		}
		return next.HandleFinalize(ctx, in)
	}), middleware.After))
	client := smithyhttp.ClientDoFunc(func(r *http.Request) (*http.Response, error) {
		if r.Body != nil {
			io.Copy(io.Discard, r.Body)
		}
		return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody}, nil
	})
	handler := middleware.DecorateHandler(smithyhttp.NewClientHandler(client), stack)

	for range 2000 {
		if _, _, err := handler.Handle(context.Background(), struct{}{}); err != nil {
			log.Fatal(err)
		}
	}

	runtime.GC() // the allocation profile is as of the last collection
	f, err := os.Create(os.Args[1])
	must(err)
	must(pprof.Lookup("allocs").WriteTo(f, 0))
	must(f.Close())
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
